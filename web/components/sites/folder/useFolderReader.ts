// Reading a dropped or picked folder for an upload, the one way the wizard and the Files tab do
// it: refused up front without WebCrypto (nothing could be hashed and sent), `reading` while the
// walk runs, and a toast for what went wrong.
import { useState } from "react";
import { toast } from "sonner";
import { SITE_TEXT } from "../../../../common/sites";
import { FOLDER_TEXT } from "../../../../common/uploads";
import { errorDescription } from "../../../lib/api";
import type { DroppedFolder } from "../../ui/DropZone";
import { canHash } from "./hashFiles";
import { FolderProblem, readFolder, type PickedFolder, type ReadOptions } from "./readFolder";

export function useFolderReader(onRead: (folder: PickedFolder) => void): {
  reading: boolean;
  read: (source: DroppedFolder, options: ReadOptions) => Promise<void>;
} {
  const [reading, setReading] = useState(false);
  const read = async (source: DroppedFolder, options: ReadOptions) => {
    if (!canHash()) {
      toast.error(FOLDER_TEXT.insecureTitle, { description: FOLDER_TEXT.insecureDescription });
      return;
    }
    setReading(true);
    try {
      onRead(await readFolder(source, options));
    } catch (error) {
      if (error instanceof FolderProblem) toast.error(error.title, { description: error.description });
      else toast.error(SITE_TEXT.uploadFailed, { description: errorDescription(error) });
    } finally {
      setReading(false);
    }
  };
  return { reading, read };
}
