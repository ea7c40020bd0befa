// Adding a custom domain: a domain name and, on /dashboard/domains, the site it serves. The rules
// are the server's (AddDomainRequest), checked here first so the message sits under the field.
import { useId } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Plus } from "lucide-react";
import type { SiteResponse } from "../../../common/sites";
import { ApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";
import { Select } from "../ui/Select";
import { Spinner } from "../ui/Spinner";
import { NewDomainForm, type NewDomainFields } from "./domains";
import { useAddDomain } from "./useDomainActions";

/** A server refusal that belongs under the domain field (invalid, taken, attached). */
function domainFieldError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.fields?.domain) return error.fields.domain;
  return error.status === 400 || error.status === 409 ? error.message : undefined;
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
  const {
    register,
    handleSubmit,
    resetField,
    setError,
    formState: { errors },
  } = useForm<NewDomainFields, unknown, NewDomainForm>({
    resolver: zodResolver(NewDomainForm),
    defaultValues: {
      domain: "",
      siteId: siteId ?? sites?.find((site) => site.id === initialSiteId)?.id ?? (sites?.length === 1 ? sites[0]!.id : ""),
    },
  });

  const submit = handleSubmit(({ siteId: target, domain }) =>
    add.mutate(
      { siteId: target, body: { domain } },
      {
        onSuccess: () => resetField("domain"),
        onError: (error) => {
          const message = domainFieldError(error);
          if (message) setError("domain", { message });
        },
      },
    ),
  );

  const busy = disabled || add.isPending;
  const picker = siteId === undefined;

  return (
    <form
      noValidate
      onSubmit={submit}
      className={cn("grid gap-4", picker ? "md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto]" : "sm:grid-cols-[minmax(0,1fr)_auto]")}
    >
      {picker && (
        <FormField id={`${id}-site`} label="Site" error={errors.siteId?.message}>
          <Select id={`${id}-site`} disabled={busy} {...describedBy(`${id}-site`, errors.siteId?.message)} {...register("siteId")}>
            <option value="">Choose a site…</option>
            {(sites ?? []).map((site) => (
              <option key={site.id} value={site.id}>
                {site.name} ({site.subdomain})
              </option>
            ))}
          </Select>
        </FormField>
      )}
      <FormField id={`${id}-domain`} label="Domain" error={errors.domain?.message}>
        <Input
          id={`${id}-domain`}
          placeholder="www.example.com"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="url"
          disabled={busy}
          {...describedBy(`${id}-domain`, errors.domain?.message)}
          {...register("domain")}
        />
      </FormField>
      <div className="grid content-start gap-2">
        {/* Keeps the button level with the fields, whose labels sit above them. */}
        <span className={cn("hidden h-3.5", picker ? "md:block" : "sm:block")} aria-hidden />
        <Button type="submit" disabled={busy}>
          {add.isPending ? <Spinner className="size-4 text-current" label="Adding" /> : <Plus aria-hidden />}
          Add domain
        </Button>
      </div>
    </form>
  );
}
