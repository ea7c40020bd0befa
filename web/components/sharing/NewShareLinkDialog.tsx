// "New share link": a name, and optionally an expiry time (local), a password and a view limit.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { SHARE_LINK_NAME_MAX, type CreateShareLinkRequest } from "../../../common/shareLinks";
import { ApiError } from "../../lib/api";
import { DialogFormActions, FormDialog } from "../ui/Dialog";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";
import { PasswordInput } from "../ui/PasswordInput";
import { NewLinkForm, type NewLinkErrors, type NewLinkFields } from "./shareLinks";
import { useCreateShareLink } from "./useShareLinkActions";

const EMPTY: NewLinkFields = {
  name: "",
  expiresAt: "",
  password: "",
  maxViews: "",
};

export function NewShareLinkDialog({ siteId, open, onOpenChange }: { siteId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateShareLink(siteId);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<NewLinkFields, unknown, CreateShareLinkRequest>({
    resolver: zodResolver(NewLinkForm),
    defaultValues: EMPTY,
  });

  // Each opening starts empty, not from an abandoned earlier link.
  useEffect(() => {
    if (open) reset(EMPTY);
  }, [open, reset]);

  const submit = handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: () => onOpenChange(false),
      onError: (error) => {
        const fields: NewLinkErrors = error instanceof ApiError ? (error.fields ?? {}) : {};
        for (const [field, message] of Object.entries(fields)) if (field in EMPTY && message) setError(field as keyof NewLinkFields, { message });
      },
    }),
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={create.isPending}
      title="New share link"
      description={
        <>
          Anyone with the link can open the site, even when it is private or has a password. Name it after the person or purpose, so you can revoke it
          later.
        </>
      }
    >
      <form noValidate className="mt-5 grid gap-5" onSubmit={submit}>
        <FormField id="share-name" label="Name" error={errors.name?.message}>
          <Input
            id="share-name"
            maxLength={SHARE_LINK_NAME_MAX}
            placeholder="Client review"
            autoComplete="off"
            {...describedBy("share-name", errors.name?.message)}
            {...register("name")}
          />
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id="share-expires" label="Expires" hint="Optional, in your local time." error={errors.expiresAt?.message}>
            <Input
              id="share-expires"
              type="datetime-local"
              {...describedBy("share-expires", errors.expiresAt?.message, true)}
              {...register("expiresAt")}
            />
          </FormField>
          <FormField
            id="share-max-views"
            label="Maximum views"
            hint="Optional. Each browser that opens the link counts once."
            error={errors.maxViews?.message}
          >
            <Input
              id="share-max-views"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder="No limit"
              {...describedBy("share-max-views", errors.maxViews?.message, true)}
              {...register("maxViews")}
            />
          </FormField>
        </div>
        <FormField
          id="share-password"
          label="Password"
          hint="Optional. Visitors enter it once when they open the link."
          error={errors.password?.message}
        >
          <PasswordInput
            id="share-password"
            autoComplete="new-password"
            {...describedBy("share-password", errors.password?.message, true)}
            {...register("password")}
          />
        </FormField>
        <DialogFormActions submitLabel="Create link" pendingLabel="Creating" pending={create.isPending} />
      </form>
    </FormDialog>
  );
}
