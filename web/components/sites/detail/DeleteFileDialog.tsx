import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { SiteFileResponse } from "../../../../common/sites";
import { api } from "../../../lib/api";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { refreshSite, siteUrl } from "./actions";

/** Confirms and deletes one file, or a folder with everything in it. `file` null: closed. */
export function DeleteFileDialog({ siteId, file, onClose }: { siteId: string; file: SiteFileResponse | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (target: SiteFileResponse) =>
      api<unknown>(siteUrl(siteId, `/files/${encodeURIComponent(target.id)}`), {
        method: "DELETE",
      }),
    onSuccess: (_, target) =>
      toast.success(target.is_folder ? "Folder deleted" : "File deleted", {
        description: `${target.filename} was removed and a new version of the site was published.`,
      }),
    onSettled: () => refreshSite(queryClient, siteId),
  });

  const folder = file?.is_folder ?? false;
  const name = <strong className="break-all font-medium text-foreground">{file?.filename}</strong>;
  return (
    <ConfirmDialog
      open={file !== null}
      onOpenChange={(open) => !open && onClose()}
      title={folder ? "Delete this folder?" : "Delete this file?"}
      description={
        <>
          {folder ? <>The folder {name} and everything in it will be deleted from the site.</> : <>{name} will be deleted from the site.</>} A new
          version is published without it; earlier versions keep their copy, so you can roll back.
        </>
      }
      confirmLabel="Delete"
      pendingLabel="Deleting"
      destructive
      failureTitle={folder ? "Failed to delete folder" : "Failed to delete file"}
      onConfirm={() => (file ? remove.mutateAsync(file) : undefined)}
    />
  );
}
