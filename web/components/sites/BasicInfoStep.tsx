import { Globe } from "lucide-react";
import type { UseFormRegister } from "react-hook-form";
import type { z } from "zod";
import { SITE_DESCRIPTION_MAX, SITE_NAME_MAX, SITE_TEXT, type CreateSiteFields } from "../../../common/sites";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";
import { LoadError } from "../ui/LoadError";
import { Skeleton } from "../ui/Skeleton";
import { Textarea } from "../ui/Textarea";

export type SubdomainState =
  | { status: "loading" }
  | { status: "ready"; subdomain: string }
  | {
      status: "error";
      message: string;
      noSubdomains: boolean;
      retrying: boolean;
    };

/** The wizard's form: the server's fields for a new site. */
export type WizardFields = z.input<typeof CreateSiteFields>;

/** Step 1: name, optional description, and the subdomain the pool assigned. */
export function BasicInfoStep({
  register,
  descriptionLength,
  nameError,
  subdomain,
  host,
  onRetrySubdomain,
}: {
  register: UseFormRegister<WizardFields>;
  descriptionLength: number;
  nameError: string | undefined;
  subdomain: SubdomainState;
  host: string;
  onRetrySubdomain: () => void;
}) {
  return (
    <div className="flex flex-col gap-6">
      <FormField id="site-name" label="Site Name" error={nameError}>
        <Input
          id="site-name"
          placeholder="My portfolio"
          maxLength={SITE_NAME_MAX}
          autoComplete="off"
          autoFocus
          {...describedBy("site-name", nameError)}
          {...register("name")}
        />
      </FormField>

      <FormField
        id="site-description"
        label="Description"
        aside={<span className="text-xs text-muted-foreground">Optional</span>}
        hint={`${descriptionLength}/${SITE_DESCRIPTION_MAX} characters`}
      >
        <Textarea
          id="site-description"
          placeholder="What is this site for? Only you see this."
          maxLength={SITE_DESCRIPTION_MAX}
          className="min-h-24 resize-y"
          {...describedBy("site-description", undefined, true)}
          {...register("description")}
        />
      </FormField>

      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium leading-none" id="site-subdomain-label">
          Subdomain
        </span>
        <SubdomainBox state={subdomain} host={host} onRetry={onRetrySubdomain} />
      </div>
    </div>
  );
}

function SubdomainBox({ state, host, onRetry }: { state: SubdomainState; host: string; onRetry: () => void }) {
  if (state.status === "error") {
    return (
      <LoadError
        inline
        title={state.noSubdomains ? SITE_TEXT.noSubdomainsInline : state.message}
        onRetry={onRetry}
        retrying={state.retrying}
        className="rounded-lg border border-destructive/30 bg-destructive/5 p-3"
      />
    );
  }
  return (
    <div role="group" aria-labelledby="site-subdomain-label" aria-busy={state.status === "loading"}>
      <div className="flex h-10 items-center gap-2.5 rounded-md border border-input bg-muted/50 px-3 text-sm">
        <Globe className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        {state.status === "loading" ? (
          <>
            <Skeleton className="h-4 w-40" />
            <span className="sr-only">Assigning a subdomain…</span>
          </>
        ) : (
          <span className="min-w-0 truncate font-mono text-[13px]" data-testid="assigned-subdomain">
            <span className="font-semibold text-foreground">{state.subdomain}</span>
            <span className="text-muted-foreground">.{host}</span>
          </span>
        )}
      </div>
      <p className="mt-2 text-xs text-muted-foreground">Assigned automatically. Your site will be live at this address as soon as you upload.</p>
    </div>
  );
}
