import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { NewFolderForm, SITE_TEXT, type FolderResponse } from "../../../../common/sites";
import { api, errorDescription } from "../../../lib/api";
import { DialogFormActions, FormDialog } from "../../ui/Dialog";
import { Input } from "../../ui/Input";
import { FormField } from "../../ui/FormField";
import { refreshSite, siteUrl } from "./actions";
import { breadcrumbsFromPath } from "./paths";

/** 'Create New Folder' in the folder being viewed. */
export function NewFolderDialog({
  siteId,
  parent,
  open,
  onOpenChange,
}: {
  siteId: string;
  parent: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset } = useForm<NewFolderForm>({
    resolver: zodResolver(NewFolderForm),
    defaultValues: { name: "" },
  });
  const create = useMutation({
    mutationFn: (folderName: string) =>
      api<FolderResponse>(siteUrl(siteId, "/folders"), {
        method: "POST",
        json: { name: folderName, parent },
      }),
    onSuccess: (_, folderName) => {
      toast.success(SITE_TEXT.folderCreated, {
        description: SITE_TEXT.folderCreatedDescription(folderName),
      });
      reset();
      onOpenChange(false);
    },
    onError: (error) =>
      toast.error(SITE_TEXT.folderFailed, {
        description: errorDescription(error),
      }),
    onSettled: () => refreshSite(queryClient, siteId),
  });

  // A missing name is told in a toast, not under the field, like every other outcome of this dialog.
  const submit = handleSubmit(
    ({ name }) => create.mutate(name),
    () =>
      toast.error(SITE_TEXT.folderNameRequired, {
        description: SITE_TEXT.folderNameRequiredDescription,
      }),
  );

  const location = breadcrumbsFromPath(parent)
    .map((crumb) => crumb.label)
    .join(" / ");

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={create.isPending}
      title={SITE_TEXT.createFolderTitle}
      description={
        <>
          Created in <span className="font-medium text-foreground">{location}</span>.
        </>
      }
      className="max-w-md"
    >
      <form noValidate onSubmit={submit} className="mt-5 grid gap-5">
        <FormField id="new-folder-name" label={SITE_TEXT.folderNameLabel}>
          <Input id="new-folder-name" placeholder={SITE_TEXT.folderNamePlaceholder} autoComplete="off" autoFocus {...register("name")} />
        </FormField>
        <DialogFormActions submitLabel={SITE_TEXT.createFolder} pendingLabel="Creating" pending={create.isPending} />
      </form>
    </FormDialog>
  );
}
