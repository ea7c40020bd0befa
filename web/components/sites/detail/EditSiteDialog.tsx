// 'Edit Site' and 'Edit Settings' open this one dialog: the site's name and description.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { z } from "zod";
import { SITE_DESCRIPTION_MAX, SITE_NAME_MAX, UpdateSiteRequest, type SiteResponse } from "../../../../common/sites";
import { api, ApiError, errorDescription } from "../../../lib/api";
import { queryKeys } from "../../../lib/queries";
import { DialogFormActions, FormDialog } from "../../ui/Dialog";
import { FormField, describedBy } from "../../ui/FormField";
import { Input } from "../../ui/Input";
import { Textarea } from "../../ui/Textarea";
import { siteUrl } from "./actions";

type EditInput = z.input<typeof UpdateSiteRequest>;

export function EditSiteDialog({ site, open, onOpenChange }: { site: SiteResponse; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isDirty },
  } = useForm<EditInput, unknown, UpdateSiteRequest>({
    resolver: zodResolver(UpdateSiteRequest),
    defaultValues: { name: site.name, description: site.description ?? "" },
  });

  // Each opening starts from the site as it is now, not from an abandoned earlier edit.
  useEffect(() => {
    if (open) reset({ name: site.name, description: site.description ?? "" });
  }, [open, site.name, site.description, reset]);

  const save = useMutation({
    mutationFn: (values: UpdateSiteRequest) =>
      api<SiteResponse>(siteUrl(site.id), {
        method: "PATCH",
        json: {
          name: values.name,
          description: values.description ? values.description : null,
        },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.site(site.id), updated);
      void queryClient.invalidateQueries({
        queryKey: queryKeys.sites,
        exact: true,
      });
      toast.success("Site updated", {
        description: "Your changes have been saved.",
      });
      onOpenChange(false);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        if (error.fields.name) setError("name", { message: error.fields.name });
        if (error.fields.description) setError("description", { message: error.fields.description });
      }
      toast.error("Failed to update site", {
        description: errorDescription(error),
      });
    },
  });

  const description = watch("description") ?? "";

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={save.isPending}
      title="Edit site"
      description={<>Change how this site is named in your dashboard. Its address stays the same.</>}
    >
      <form noValidate className="mt-5 grid gap-5" onSubmit={handleSubmit((values) => save.mutate(values))}>
        <FormField id="edit-site-name" label="Site Name" error={errors.name?.message}>
          <Input
            id="edit-site-name"
            maxLength={SITE_NAME_MAX}
            autoComplete="off"
            {...describedBy("edit-site-name", errors.name?.message)}
            {...register("name")}
          />
        </FormField>
        <FormField
          id="edit-site-description"
          label="Description"
          aside={
            <span className="text-xs tabular-nums text-muted-foreground" aria-hidden>
              {description.length}/{SITE_DESCRIPTION_MAX}
            </span>
          }
          error={errors.description?.message}
        >
          <Textarea
            id="edit-site-description"
            rows={4}
            maxLength={SITE_DESCRIPTION_MAX}
            placeholder="What is this site for? (optional)"
            className="min-h-24 resize-y"
            {...describedBy("edit-site-description", errors.description?.message)}
            {...register("description")}
          />
        </FormField>
        <DialogFormActions submitLabel="Save changes" pendingLabel="Saving" pending={save.isPending} disabled={!isDirty} />
      </form>
    </FormDialog>
  );
}
