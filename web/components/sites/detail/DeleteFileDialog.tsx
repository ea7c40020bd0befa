import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { SiteFileResponse } from "../../../../common/sites";
import { api } from "../../../lib/api";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../ui/alert-dialog";
import { Spinner } from "../../ui/spinner";
import { errorDescription, refreshSite, siteUrl } from "./actions";

/** Confirms and deletes one file, or a folder with everything in it. `file` null: closed. */
export function DeleteFileDialog({
  siteId,
  file,
  onClose,
}: {
  siteId: string;
  file: SiteFileResponse | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (target: SiteFileResponse) =>
      api<unknown>(siteUrl(siteId, `/files/${encodeURIComponent(target.id)}`), {
        method: "DELETE",
      }),
    onSuccess: (_, target) => {
      toast.success(target.is_folder ? "Folder deleted" : "File deleted", {
        description: `${target.filename} was removed and a new version of the site was published.`,
      });
      onClose();
    },
    onError: (error, target) =>
      toast.error(
        target.is_folder ? "Failed to delete folder" : "Failed to delete file",
        {
          description: errorDescription(error),
        },
      ),
    onSettled: () => refreshSite(queryClient, siteId),
  });

  const folder = file?.is_folder ?? false;
  return (
    <AlertDialog
      open={file !== null}
      onOpenChange={(open) => !open && !remove.isPending && onClose()}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>
            {folder ? "Delete this folder?" : "Delete this file?"}
          </AlertDialogTitle>
          <AlertDialogDescription>
            {folder ? (
              <>
                The folder{" "}
                <strong className="break-all font-medium text-foreground">
                  {file?.filename}
                </strong>{" "}
                and everything in it will be deleted from the site.
              </>
            ) : (
              <>
                <strong className="break-all font-medium text-foreground">
                  {file?.filename}
                </strong>{" "}
                will be deleted from the site.
              </>
            )}{" "}
            A new version is published without it; earlier versions keep their
            copy, so you can roll back.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>
            Cancel
          </AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={remove.isPending}
            onClick={(event) => {
              event.preventDefault();
              if (file) remove.mutate(file);
            }}
          >
            {remove.isPending && (
              <Spinner className="size-4 text-current" label="Deleting" />
            )}
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
