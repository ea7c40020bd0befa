// The Settings tab's Password card (Pro): every address of the site asks visitors for this
// password first. Setting or changing it ends every visitor's access (their cookie names the
// old password's version). A Free user sees the fields disabled and a way to the plans dialog;
// removing stays possible, so a site protected while on Pro can be opened after a downgrade.
import { PlanFeaturePrompt } from "./PlanFeaturePrompt";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LockKeyhole } from "lucide-react";
import { toast } from "sonner";
import { SetSitePasswordForm, SITE_PASSWORD_TEXT, type SetSitePasswordRequest, type SiteResponse } from "../../../../common/sites";
import { api, ApiError, errorDescription } from "../../../lib/api";
import { queryKeys, useStats } from "../../../lib/queries";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "../../ui/Card";
import { FormField, describedBy } from "../../ui/FormField";
import { PasswordInput } from "../../ui/PasswordInput";
import { Spinner } from "../../ui/Spinner";
import { siteUrl } from "./actions";

export function PasswordCard({ site }: { site: SiteResponse }) {
  const queryClient = useQueryClient();
  const stats = useStats();
  const planId = stats.data?.plan;
  // Until the plan is known the fields wait, rather than flash an upgrade prompt at Pro users.
  const allowed = stats.data?.features.passwordProtection ?? false;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<SetSitePasswordForm>({
    resolver: zodResolver(SetSitePasswordForm),
    defaultValues: { password: "", confirm: "" },
  });
  const [confirmRemove, setConfirmRemove] = useState(false);

  const updated = (next: SiteResponse) => {
    queryClient.setQueryData(queryKeys.site(site.id), next);
    void queryClient.invalidateQueries({
      queryKey: queryKeys.sites,
      exact: true,
    });
  };

  const save = useMutation({
    mutationFn: (body: SetSitePasswordRequest) =>
      api<SiteResponse>(siteUrl(site.id, "/password"), {
        method: "PUT",
        json: body,
      }),
    onSuccess: (next) => {
      updated(next);
      reset();
      toast.success(SITE_PASSWORD_TEXT.saved);
    },
    onError: (error) => {
      const refused = error instanceof ApiError ? error.fields?.password : undefined;
      if (refused) setError("password", { message: refused });
      toast.error(SITE_PASSWORD_TEXT.saveFailed, {
        description: errorDescription(error),
      });
    },
  });

  const remove = useMutation({
    mutationFn: () => api<SiteResponse>(siteUrl(site.id, "/password"), { method: "DELETE" }),
    onSuccess: (next) => {
      updated(next);
      toast.success(SITE_PASSWORD_TEXT.removed);
    },
  });

  const submit = handleSubmit(({ password }) => save.mutate({ password }));

  const busy = save.isPending || remove.isPending;
  const disabled = !allowed || busy || site.is_deleted;
  const isProtected = site.password_protected;

  return (
    <Card>
      <form noValidate onSubmit={submit}>
        <CardHeader className="border-b">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            <LockKeyhole className="size-4 text-muted-foreground" aria-hidden />
            Password
            <span
              className={
                isProtected
                  ? "rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary"
                  : "rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground"
              }
            >
              {isProtected ? "Protected" : "Not protected"}
            </span>
          </CardTitle>
          <CardDescription>
            Visitors must enter this password before they see any page or file of the site. Changing it signs every visitor out.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 pt-6 sm:grid-cols-2">
          <FormField id="site-password" label={isProtected ? "New password" : "Password"} error={errors.password?.message}>
            <PasswordInput
              id="site-password"
              autoComplete="new-password"
              disabled={disabled}
              {...describedBy("site-password", errors.password?.message)}
              {...register("password")}
            />
          </FormField>
          <FormField id="site-password-confirm" label="Confirm password" error={errors.confirm?.message}>
            <PasswordInput
              id="site-password-confirm"
              autoComplete="new-password"
              disabled={disabled}
              {...describedBy("site-password-confirm", errors.confirm?.message)}
              {...register("confirm")}
            />
          </FormField>
          {planId && !allowed ? <PlanFeaturePrompt feature="passwordProtection" planId={planId} /> : null}
        </CardContent>
        <CardFooter className="flex flex-wrap justify-end gap-2 border-t pt-4">
          <ConfirmDialog
            open={confirmRemove}
            onOpenChange={setConfirmRemove}
            trigger={
              <Button type="button" variant="outline" disabled={!isProtected || busy || site.is_deleted}>
                Remove password
              </Button>
            }
            title="Remove the password?"
            description="Anyone with the address will be able to see the site again."
            confirmLabel="Remove"
            pendingLabel="Removing"
            destructive
            failureTitle={SITE_PASSWORD_TEXT.removeFailed}
            onConfirm={() => remove.mutateAsync()}
          />
          <Button type="submit" disabled={disabled}>
            {save.isPending ? <Spinner /> : null}
            {isProtected ? "Change password" : "Set password"}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
