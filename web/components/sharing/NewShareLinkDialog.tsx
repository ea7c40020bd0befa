// "New share link": a name, and optionally an expiry time (local), a password and a view limit.
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { SHARE_LINK_NAME_MAX } from "../../../common/shareLinks";
import { ApiError } from "../../lib/api";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../ui/dialog";
import { FieldError } from "../ui/field-error";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { PasswordInput } from "../ui/password-input";
import { Spinner } from "../ui/spinner";
import {
  newLinkRequest,
  type NewLinkErrors,
  type NewLinkFields,
} from "./shareLinks";
import { useCreateShareLink } from "./useShareLinkActions";

const EMPTY: NewLinkFields = {
  name: "",
  expires: "",
  password: "",
  maxViews: "",
};

export function NewShareLinkDialog({
  siteId,
  open,
  onOpenChange,
}: {
  siteId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateShareLink(siteId);
  const [fields, setFields] = useState<NewLinkFields>(EMPTY);
  const [errors, setErrors] = useState<NewLinkErrors>({});

  // Each opening starts empty, not from an abandoned earlier link.
  useEffect(() => {
    if (open) {
      setFields(EMPTY);
      setErrors({});
    }
  }, [open]);

  const set =
    (field: keyof NewLinkFields, error: keyof NewLinkErrors) =>
    (value: string) => {
      setFields((f) => ({ ...f, [field]: value }));
      setErrors((e) => ({ ...e, [error]: undefined }));
    };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request = newLinkRequest(fields);
    if (!request.ok) return setErrors(request.errors);
    create.mutate(request.body, {
      onSuccess: () => onOpenChange(false),
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !create.isPending && onOpenChange(next)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New share link</DialogTitle>
          <DialogDescription>
            Anyone with the link can open the site, even when it is private or
            has a password. Name it after the person or purpose, so you can
            revoke it later.
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="mt-5 grid gap-5" onSubmit={submit}>
          <Field id="share-name" label="Name" error={errors.name}>
            <Input
              id="share-name"
              value={fields.name}
              onChange={(event) => set("name", "name")(event.target.value)}
              maxLength={SHARE_LINK_NAME_MAX}
              placeholder="Client review"
              autoComplete="off"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "share-name-error" : undefined}
            />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              id="share-expires"
              label="Expires"
              hint="Optional, in your local time."
              error={errors.expiresAt}
            >
              <Input
                id="share-expires"
                type="datetime-local"
                value={fields.expires}
                onChange={(event) =>
                  set("expires", "expiresAt")(event.target.value)
                }
                aria-invalid={errors.expiresAt ? true : undefined}
                aria-describedby={`share-expires-hint${errors.expiresAt ? " share-expires-error" : ""}`}
              />
            </Field>
            <Field
              id="share-max-views"
              label="Maximum views"
              hint="Optional. Each browser that opens the link counts once."
              error={errors.maxViews}
            >
              <Input
                id="share-max-views"
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={fields.maxViews}
                onChange={(event) =>
                  set("maxViews", "maxViews")(event.target.value)
                }
                placeholder="No limit"
                aria-invalid={errors.maxViews ? true : undefined}
                aria-describedby={`share-max-views-hint${errors.maxViews ? " share-max-views-error" : ""}`}
              />
            </Field>
          </div>
          <Field
            id="share-password"
            label="Password"
            hint="Optional. Visitors enter it once when they open the link."
            error={errors.password}
          >
            <PasswordInput
              id="share-password"
              value={fields.password}
              onChange={(event) =>
                set("password", "password")(event.target.value)
              }
              autoComplete="new-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={`share-password-hint${errors.password ? " share-password-error" : ""}`}
            />
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button
                type="button"
                variant="outline"
                disabled={create.isPending}
              >
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && (
                <Spinner className="size-4 text-current" label="Creating" />
              )}
              Create link
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
