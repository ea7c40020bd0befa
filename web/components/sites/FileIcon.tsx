import { File, FileArchive, FileCode2, FileImage, FileText, Folder, type LucideIcon } from "lucide-react";
import { fileIconKind, type FileIconKind } from "../../../common/format";
import { cn } from "../../lib/cn";

const ICONS: Record<FileIconKind, { Icon: LucideIcon; tone: string }> = {
  folder: {
    Icon: Folder,
    tone: "bg-amber-100 text-amber-600 [&_svg]:fill-amber-400/40",
  },
  pdf: { Icon: FileText, tone: "bg-red-50 text-red-600" },
  archive: { Icon: FileArchive, tone: "bg-orange-50 text-orange-600" },
  image: { Icon: FileImage, tone: "bg-emerald-50 text-emerald-600" },
  code: { Icon: FileCode2, tone: "bg-sky-50 text-sky-600" },
  file: { Icon: File, tone: "bg-muted text-muted-foreground" },
};

/** An icon by extension (pdf, archive, image, code, other), on a tinted tile so kinds are told apart at a glance. */
export function FileIcon({ name, isFolder, className }: { name: string; isFolder: boolean; className?: string }) {
  const { Icon, tone } = ICONS[fileIconKind(name, isFolder)];
  return (
    <span className={cn("flex size-8 shrink-0 items-center justify-center rounded-md", tone, className)} aria-hidden>
      <Icon className="size-4" />
    </span>
  );
}
