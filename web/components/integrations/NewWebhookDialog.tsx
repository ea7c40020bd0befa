// "Add webhook": the URL, the sites whose events it receives and which events; then the signing
// secret, once. The server keeps it only to sign deliveries and never shows it again.
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { WEBHOOK_URL_MAX, WEBHOOK_TEXT, type CreatedWebhookResponse } from "../../../common/webhooks";
import type { SiteResponse } from "../../../common/sites";
import { showFieldErrors } from "../../lib/api";
import { DialogFormActions, FormDialog } from "../ui/Dialog";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";
import { SecretOnce } from "./SecretOnce";
import { Select } from "../ui/Select";
import { EventChoice } from "./EventChoice";
import { ALL_SITES, DEFAULT_EVENTS, NewWebhookForm, WEBHOOK_REQUEST_FIELD, type NewWebhookFields, type NewWebhookRequest } from "./webhooks";
import { useCreateWebhook } from "./useWebhookActions";

export function NewWebhookDialog({
  open,
  onOpenChange,
  sites,
  siteId = ALL_SITES,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The sites a webhook can be limited to. */
  sites: SiteResponse[];
  /** The site chosen when the dialog opens (a site's own page), or ALL_SITES. */
  siteId?: string;
}) {
  const create = useCreateWebhook();
  const [created, setCreated] = useState<CreatedWebhookResponse | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<NewWebhookFields, unknown, NewWebhookRequest>({
    resolver: zodResolver(NewWebhookForm),
    defaultValues: { url: "", scope: siteId, events: DEFAULT_EVENTS },
  });

  // Each opening starts with an empty form, and a secret shown before is never shown again.
  useEffect(() => {
    if (open) {
      reset({ url: "", scope: siteId, events: DEFAULT_EVENTS });
      setCreated(null);
    }
  }, [open, reset, siteId]);

  const close = (next: boolean) => {
    if (!next) setCreated(null);
    onOpenChange(next);
  };

  const submit = handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: setCreated,
      onError: (error) => showFieldErrors(error, (field) => WEBHOOK_REQUEST_FIELD[field.split(".")[0]!], setError),
    }),
  );

  if (created) {
    return (
      <FormDialog
        open={open}
        onOpenChange={close}
        pending={false}
        title="Webhook added"
        description="Berth signs every delivery to it with this secret."
      >
        <SecretOnce
          id="webhook-secret"
          secret={created.secret}
          warning={WEBHOOK_TEXT.copyOnce}
          label="Signing secret"
          hint="Check the Berth-Signature header of each request with it; the docs show how."
          copyLabel="Copy the signing secret"
        />
      </FormDialog>
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      pending={create.isPending}
      title="Add webhook"
      description="Berth sends a signed POST request with a JSON body to this URL when something happens to your sites."
    >
      <form noValidate className="mt-5 grid gap-5" onSubmit={submit}>
        <FormField id="webhook-url" label="Payload URL" error={errors.url?.message} hint="A public https:// address that answers with a 2xx status.">
          <Input
            id="webhook-url"
            type="url"
            inputMode="url"
            maxLength={WEBHOOK_URL_MAX}
            placeholder="https://example.com/hooks/berth"
            autoComplete="off"
            spellCheck={false}
            {...describedBy("webhook-url", errors.url?.message, true)}
            {...register("url")}
          />
        </FormField>
        <FormField id="webhook-scope" label="Sites" error={errors.scope?.message}>
          <Select id="webhook-scope" {...describedBy("webhook-scope", errors.scope?.message)} {...register("scope")}>
            <option value={ALL_SITES}>All my sites</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name} ({site.subdomain})
              </option>
            ))}
          </Select>
        </FormField>
        <EventChoice field={register("events")} error={errors.events?.message} />
        <DialogFormActions submitLabel="Add webhook" pendingLabel="Adding" pending={create.isPending} />
      </form>
    </FormDialog>
  );
}
