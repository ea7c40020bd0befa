// Adding a custom domain: a domain name and, on /dashboard/domains, the site it serves. The rules
// are the server's (AddDomainRequest), checked here first so the message sits under the field.
import { useId, useState, type FormEvent } from "react";
import { Plus } from "lucide-react";
import { AddDomainRequest, DOMAIN_UI_TEXT } from "../../../common/domains";
import type { SiteResponse } from "../../../common/sites";
import { ApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { Button } from "../ui/button";
import { FieldError } from "../ui/field-error";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { Spinner } from "../ui/spinner";
import { useAddDomain } from "./useDomainActions";

interface Errors {
  site?: string | undefined;
  domain?: string | undefined;
}

/** A server refusal that belongs under the domain field (invalid, taken, attached). */
function domainFieldError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.fields?.domain) return error.fields.domain;
  return error.status === 400 || error.status === 409
    ? error.message
    : undefined;
}

export function AddDomainForm({
  siteId,
  sites,
  initialSiteId,
  disabled = false,
}: {
  /** The site the domain is for; without it the form offers `sites` to choose from. */
  siteId?: string;
  sites?: SiteResponse[];
  /** The site chosen at first (/dashboard/domains?site=…), when it is one of `sites`. */
  initialSiteId?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const add = useAddDomain();
  const [domain, setDomain] = useState("");
  const [chosen, setChosen] = useState(
    () =>
      siteId ??
      sites?.find((site) => site.id === initialSiteId)?.id ??
      (sites?.length === 1 ? sites[0]!.id : ""),
  );
  const [errors, setErrors] = useState<Errors>({});
  const target = siteId ?? chosen;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = AddDomainRequest.safeParse({ domain });
    const next: Errors = {
      site: target ? undefined : DOMAIN_UI_TEXT.siteRequired,
      domain: parsed.success ? undefined : parsed.error.issues[0]?.message,
    };
    if (next.site || next.domain || !parsed.success) return setErrors(next);
    add.mutate(
      { siteId: target, body: parsed.data },
      {
        onSuccess: () => {
          setDomain("");
          setErrors({});
        },
        onError: (error) => setErrors({ domain: domainFieldError(error) }),
      },
    );
  };

  const busy = disabled || add.isPending;
  const picker = siteId === undefined;

  return (
    <form
      noValidate
      onSubmit={submit}
      className={cn(
        "grid gap-4",
        picker
          ? "md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto]"
          : "sm:grid-cols-[minmax(0,1fr)_auto]",
      )}
    >
      {picker && (
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-site`}>Site</Label>
          <select
            id={`${id}-site`}
            value={chosen}
            onChange={(event) => {
              setChosen(event.target.value);
              setErrors((e) => ({ ...e, site: undefined }));
            }}
            disabled={busy}
            aria-invalid={errors.site ? true : undefined}
            aria-describedby={errors.site ? `${id}-site-error` : undefined}
            className="flex h-10 w-full cursor-pointer rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-destructive"
          >
            <option value="">Choose a site…</option>
            {(sites ?? []).map((site) => (
              <option key={site.id} value={site.id}>
                {site.name} ({site.subdomain})
              </option>
            ))}
          </select>
          <FieldError id={`${id}-site-error`} message={errors.site} />
        </div>
      )}
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-domain`}>Domain</Label>
        <Input
          id={`${id}-domain`}
          value={domain}
          onChange={(event) => {
            setDomain(event.target.value);
            setErrors((e) => ({ ...e, domain: undefined }));
          }}
          placeholder="www.example.com"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="url"
          disabled={busy}
          aria-invalid={errors.domain ? true : undefined}
          aria-describedby={errors.domain ? `${id}-domain-error` : undefined}
        />
        <FieldError id={`${id}-domain-error`} message={errors.domain} />
      </div>
      <div className="grid content-start gap-2">
        {/* Keeps the button level with the fields, whose labels sit above them. */}
        <span
          className={cn("hidden h-3.5", picker ? "md:block" : "sm:block")}
          aria-hidden
        />
        <Button type="submit" disabled={busy}>
          {add.isPending ? (
            <Spinner className="size-4 text-current" label="Adding" />
          ) : (
            <Plus aria-hidden />
          )}
          Add domain
        </Button>
      </div>
    </form>
  );
}
