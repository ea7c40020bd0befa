// "Create token": a name, the sites it covers, what it may do and when it expires; then the
// secret, once. The server keeps only a hash, so closing the dialog is the last chance to copy it.
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { API_TOKEN_NAME_MAX, API_TOKEN_TEXT, type CreatedApiTokenResponse } from "../../../common/apiTokens";
import type { SiteResponse } from "../../../common/sites";
import { showFieldErrors } from "../../lib/api";
import { DialogFormActions, FormDialog } from "../ui/Dialog";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";
import { SecretOnce } from "./SecretOnce";
import { Select } from "../ui/Select";
import { ALL_SITES, EXPIRY_OPTIONS, NewTokenForm, REQUEST_FIELD, type NewTokenFields, type NewTokenRequest } from "./apiTokens";
import { PermissionChoice } from "./PermissionChoice";
import { useCreateApiToken } from "./useApiTokenActions";

// Read only unless the person asks for more: a leaked token should do as little as it can.
const EMPTY: NewTokenFields = { name: "", scope: ALL_SITES, permission: "read", expiry: "90" };

export function NewApiTokenDialog({
  open,
  onOpenChange,
  sites,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The sites a token can be limited to. */
  sites: SiteResponse[];
}) {
  const create = useCreateApiToken();
  const [created, setCreated] = useState<CreatedApiTokenResponse | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<NewTokenFields, unknown, NewTokenRequest>({
    resolver: zodResolver(NewTokenForm),
    defaultValues: EMPTY,
  });

  // Each opening starts with an empty form, and a secret shown before is never shown again.
  useEffect(() => {
    if (open) {
      reset(EMPTY);
      setCreated(null);
    }
  }, [open, reset]);

  const close = (next: boolean) => {
    if (!next) setCreated(null);
    onOpenChange(next);
  };

  const submit = handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: setCreated,
      onError: (error) => showFieldErrors(error, (field) => REQUEST_FIELD[field], setError),
    }),
  );

  if (created) {
    return (
      <FormDialog open={open} onOpenChange={close} pending={false} title="Token created" description={`“${created.token.name}” is ready to use.`}>
        <SecretOnce
          id="token-secret"
          secret={created.secret}
          warning={API_TOKEN_TEXT.copyOnce}
          label="Your new token"
          hint="Send it with each request as the header “Authorization: Bearer” followed by the token."
          copyLabel="Copy the token"
        />
      </FormDialog>
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      pending={create.isPending}
      title="Create API token"
      description="The token acts for you with the permission you choose here. Name it after where it will be used, so you know what stops working if you revoke it."
    >
      <form noValidate className="mt-5 grid gap-5" onSubmit={submit}>
        <FormField id="token-name" label="Name" error={errors.name?.message}>
          <Input
            id="token-name"
            maxLength={API_TOKEN_NAME_MAX}
            placeholder="GitHub Actions"
            autoComplete="off"
            {...describedBy("token-name", errors.name?.message)}
            {...register("name")}
          />
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id="token-scope" label="Sites" error={errors.scope?.message}>
            <Select id="token-scope" {...describedBy("token-scope", errors.scope?.message)} {...register("scope")}>
              <option value={ALL_SITES}>All my sites</option>
              {sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.name} ({site.subdomain})
                </option>
              ))}
            </Select>
          </FormField>
          <FormField id="token-expiry" label="Expires after" error={errors.expiry?.message}>
            <Select id="token-expiry" {...describedBy("token-expiry", errors.expiry?.message)} {...register("expiry")}>
              {EXPIRY_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <PermissionChoice field={register("permission")} />
        <DialogFormActions submitLabel="Create token" pendingLabel="Creating" pending={create.isPending} />
      </form>
    </FormDialog>
  );
}
