// "Restore this version": a file, a folder's whole contents or the whole site put back as a kept
// version had it. The server publishes a new version; nothing old is rewritten.
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { HISTORY_TEXT, type RestoreResponse } from "../../../../common/history";
import { SITE_TEXT } from "../../../../common/sites";
import { api } from "../../../lib/api";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { refreshSite, siteUrl } from "./actions";

export interface RestoreTarget {
  /** A file or folder of the site; "" with folder: the whole site. */
  path: string;
  folder: boolean;
  deploymentId: string;
  version: number;
}

/** How a restore target is named in the dialog and the toast: "about.html", "folder docs", "the site". */
export function restoreName(target: Pick<RestoreTarget, "path" | "folder">): string {
  if (target.path === "") return "the site";
  return target.folder ? `folder ${target.path}` : target.path;
}

/** Confirms and runs one restore. `target` null: closed. */
export function RestoreVersionDialog({ siteId, target, onClose }: { siteId: string; target: RestoreTarget | null; onClose: () => void }) {
  const queryClient = useQueryClient();

  async function restore(chosen: RestoreTarget) {
    try {
      const result = await api<RestoreResponse>(siteUrl(siteId, "/history/restore"), {
        method: "POST",
        json: { deploymentId: chosen.deploymentId, path: chosen.path, folder: chosen.folder },
      });
      const name = restoreName(chosen);
      if (result.deployment.status === "failed") {
        toast.error(SITE_TEXT.deployFailed, { description: result.deployment.error ?? SITE_TEXT.tryLater });
      } else {
        toast.success(HISTORY_TEXT.restored, {
          description: HISTORY_TEXT.restoredBody(name.charAt(0).toUpperCase() + name.slice(1), result.restored_version),
        });
      }
    } finally {
      await refreshSite(queryClient, siteId);
    }
  }

  const name = target ? restoreName(target) : "";
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={target ? HISTORY_TEXT.restoreTitle(name, target.version) : ""}
      titleClassName="break-words"
      description={target?.folder ? HISTORY_TEXT.restoreFolderBody : HISTORY_TEXT.restoreBody}
      confirmLabel="Restore"
      pendingLabel="Restoring"
      failureTitle={HISTORY_TEXT.restoreFailed}
      onConfirm={() => (target ? restore(target) : undefined)}
    />
  );
}
