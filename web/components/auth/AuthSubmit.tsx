import type { ReactNode } from "react";
import { Loader2 } from "lucide-react";
import { Button } from "../ui/Button";

/** The full-width submit button of every auth form, with a spinner while the request runs. */
export function AuthSubmit({ submitting, children }: { submitting: boolean; children: ReactNode }) {
  return (
    <Button type="submit" size="lg" className="mt-1 w-full" disabled={submitting}>
      {submitting && <Loader2 className="animate-spin" aria-hidden />}
      {children}
    </Button>
  );
}
