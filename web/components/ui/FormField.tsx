import type { ReactNode } from "react";
import { FieldError } from "./FieldError";
import { Label } from "./Label";

/**
 * Every form field in the dashboard: label, control, optional hint and error, wired together by
 * id for assistive technology. The error takes the hint's place while it shows. The control is
 * react-hook-form's: `<Input id={id} {...describedBy(id, error)} {...register(name)} />`.
 */
export function FormField({
  id,
  label,
  error,
  hint,
  aside,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  /** Something on the label's line, right-aligned (e.g. the forgot-password link). */
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The aria attributes a control needs to point at its hint and error. */
export function describedBy(id: string, error: string | undefined, hasHint = false) {
  const ids = [error ? `${id}-error` : hasHint ? `${id}-hint` : null].filter(Boolean);
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
  } as const;
}
