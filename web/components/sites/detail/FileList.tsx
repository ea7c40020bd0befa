// A folder's contents: a table from 768 px, a compact list below it (four columns do not fit a
// phone). Both keep the server's order: folders first, then by name.
import { Download, ExternalLink, History, MoreHorizontal, Trash2 } from "lucide-react";
import { fileTypeLabel, formatBytes } from "../../../../common/format";
import type { SiteFileResponse } from "../../../../common/sites";
import { Button } from "../../ui/Button";
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from "../../ui/Menu";
import { Skeleton } from "../../ui/Skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../ui/Table";
import { siteUrl } from "./actions";
import { FileIcon } from "../FileIcon";

/** Placeholder rows hold the table's shape while a folder loads, so it does not jump when the rows arrive. */
export const FILE_SKELETON_ROWS = 6;

interface FileListProps {
  siteId: string;
  files: SiteFileResponse[] | undefined;
  /** Writes are refused on a site marked for deletion, and its files are not served. */
  readOnly: boolean;
  onOpenFolder: (file: SiteFileResponse) => void;
  onDelete: (file: SiteFileResponse) => void;
  /** Opens the file's or folder's history. */
  onHistory: (file: SiteFileResponse) => void;
}

function modified(file: SiteFileResponse): string {
  return new Date(file.updated_at).toLocaleString();
}

function size(file: SiteFileResponse): string {
  return file.is_folder ? "—" : formatBytes(file.file_size);
}

export function FileList({ siteId, files, readOnly, onOpenFolder, onDelete, onHistory }: FileListProps) {
  const rows = Array.from({ length: FILE_SKELETON_ROWS }, (_, index) => index);
  return (
    <>
      <Table className="hidden md:table" aria-busy={files ? undefined : true}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="w-[46%] pl-5">Name</TableHead>
            <TableHead>Size</TableHead>
            <TableHead>Type</TableHead>
            <TableHead>Modified</TableHead>
            <TableHead className="w-14 pr-5">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {files
            ? files.map((file) => (
                <TableRow key={file.id} className="group">
                  <TableCell className="max-w-0 pl-5">
                    <FileName file={file} onOpenFolder={onOpenFolder} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap tabular-nums text-muted-foreground">{size(file)}</TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">
                    <TypeLabel file={file} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap tabular-nums text-muted-foreground">{modified(file)}</TableCell>
                  <TableCell className="pr-5 text-right">
                    <RowMenu siteId={siteId} file={file} readOnly={readOnly} onDelete={onDelete} onHistory={onHistory} />
                  </TableCell>
                </TableRow>
              ))
            : rows.map((row) => (
                <TableRow key={row} data-skeleton-row className="hover:bg-transparent">
                  <TableCell className="pl-5">
                    <div className="flex items-center gap-3">
                      <Skeleton className="size-8" />
                      <Skeleton className="h-4 w-40" />
                    </div>
                  </TableCell>
                  <TableCell>
                    <Skeleton className="h-4 w-14" />
                  </TableCell>
                  <TableCell>
                    <Skeleton className="h-4 w-12" />
                  </TableCell>
                  <TableCell>
                    <Skeleton className="h-4 w-36" />
                  </TableCell>
                  <TableCell className="pr-5">
                    <Skeleton className="ml-auto size-8" />
                  </TableCell>
                </TableRow>
              ))}
        </TableBody>
      </Table>

      <ul className="divide-y md:hidden" aria-busy={files ? undefined : true} aria-label="Files">
        {files
          ? files.map((file) => (
              <li key={file.id} className="flex items-center gap-3 px-4 py-3">
                <div className="min-w-0 flex-1">
                  <FileName file={file} onOpenFolder={onOpenFolder} />
                  <p className="mt-0.5 truncate pl-11 text-xs text-muted-foreground">
                    {file.is_folder ? "Folder" : `${size(file)} · ${fileTypeLabel(file.filename, false)}`} · {modified(file)}
                  </p>
                </div>
                <RowMenu siteId={siteId} file={file} readOnly={readOnly} onDelete={onDelete} onHistory={onHistory} />
              </li>
            ))
          : rows.map((row) => (
              <li key={row} data-skeleton-row className="flex items-center gap-3 px-4 py-3">
                <Skeleton className="size-8" />
                <div className="flex flex-1 flex-col gap-1.5">
                  <Skeleton className="h-4 w-2/3" />
                  <Skeleton className="h-3 w-1/2" />
                </div>
              </li>
            ))}
      </ul>
    </>
  );
}

function TypeLabel({ file }: { file: SiteFileResponse }) {
  const label = fileTypeLabel(file.filename, file.is_folder);
  if (file.is_folder || label === "Unknown") return <>{label}</>;
  return <span className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{label}</span>;
}

function FileName({ file, onOpenFolder }: { file: SiteFileResponse; onOpenFolder: (file: SiteFileResponse) => void }) {
  const content = (
    <>
      <FileIcon name={file.filename} isFolder={file.is_folder} />
      <span className="truncate">{file.filename}</span>
    </>
  );
  if (!file.is_folder) {
    return (
      <div className="flex min-w-0 items-center gap-3 font-medium" title={file.filename}>
        {content}
      </div>
    );
  }
  return (
    <button
      type="button"
      onClick={() => onOpenFolder(file)}
      title={`Open ${file.filename}`}
      className="flex max-w-full cursor-pointer items-center gap-3 rounded-md text-left font-medium hover:text-primary hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      {content}
    </button>
  );
}

function RowMenu({
  siteId,
  file,
  readOnly,
  onDelete,
  onHistory,
}: {
  siteId: string;
  file: SiteFileResponse;
  readOnly: boolean;
  onDelete: (file: SiteFileResponse) => void;
  onHistory: (file: SiteFileResponse) => void;
}) {
  const downloadUrl = siteUrl(siteId, `/files/${encodeURIComponent(file.id)}/download`);
  return (
    <Menu modal={false}>
      <MenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground data-[state=open]:bg-accent"
          aria-label={`Actions for ${file.filename}`}
        >
          <MoreHorizontal aria-hidden />
        </Button>
      </MenuTrigger>
      <MenuContent className="min-w-44" sideOffset={4}>
        {!file.is_folder && (
          <>
            <MenuItem asChild disabled={readOnly || !file.url}>
              <a href={file.url ?? undefined} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden />
                View
              </a>
            </MenuItem>
            <MenuItem asChild>
              <a href={downloadUrl} download={file.filename}>
                <Download aria-hidden />
                Download
              </a>
            </MenuItem>
          </>
        )}
        <MenuItem onSelect={() => onHistory(file)}>
          <History aria-hidden />
          History
        </MenuItem>
        <MenuSeparator />
        <MenuItem
          disabled={readOnly}
          onSelect={() => onDelete(file)}
          className="text-destructive data-[highlighted]:bg-destructive/10 data-[highlighted]:text-destructive [&_svg]:text-destructive"
        >
          <Trash2 aria-hidden />
          Delete
        </MenuItem>
      </MenuContent>
    </Menu>
  );
}
