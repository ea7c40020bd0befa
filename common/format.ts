// Formatting shared by the dashboard's screens, the server's texts and the CLI. This module
// imports nothing, on purpose: the CLI is one dependency-free file and may take values from here.

/**
 * A whole number with commas between thousands, as en-US writes it: "1,000", "-12,345". Written
 * out rather than through toLocaleString: in Node the first number formatted through ICU loads
 * its locale data, about 5 MB that stay resident for the life of the process (the server formats
 * its limits into error texts as it starts), and 10 ms of a CLI command's start. Numbers that are
 * not safe integers are written as String() writes them.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
  return n < 0 ? `-${digits}` : digits;
}

const UNITS = ["Bytes", "KB", "MB", "GB", "TB"] as const;

/** Human-readable size: base 1024, units Bytes to TB, at most two decimals ("1.5 KB", "0 Bytes"). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const unit = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** unit;
  return `${parseFloat(value.toFixed(2))} ${UNITS[unit]}`;
}

/** The Files tab's Type column: 'Folder', the extension, or 'Unknown'. */
export function fileTypeLabel(name: string, isFolder: boolean): string {
  if (isFolder) return "Folder";
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : "Unknown";
}

export type FileIconKind = "folder" | "pdf" | "archive" | "image" | "code" | "file";

/** Icons by extension: pdf; archives (zip, rar, tar, gz); images (jpg, jpeg, png, gif, svg); code (html, css, js). */
export function fileIconKind(name: string, isFolder: boolean): FileIconKind {
  if (isFolder) return "folder";
  const ext = fileTypeLabel(name, false);
  if (ext === "pdf") return "pdf";
  if (["zip", "rar", "tar", "gz"].includes(ext)) return "archive";
  if (["jpg", "jpeg", "png", "gif", "svg"].includes(ext)) return "image";
  if (["html", "css", "js"].includes(ext)) return "code";
  return "file";
}

/** "just now", "5 minutes ago", "3 days ago": the time since a deployment was created. */
export function timeAgo(date: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  if (seconds < 45) return "just now";
  const steps: [number, string][] = [
    [60, "minute"],
    [60 * 60, "hour"],
    [60 * 60 * 24, "day"],
    [60 * 60 * 24 * 30, "month"],
    [60 * 60 * 24 * 365, "year"],
  ];
  let chosen = steps[0]!;
  for (const step of steps) if (seconds >= step[0] * 0.75) chosen = step;
  const count = Math.max(1, Math.round(seconds / chosen[0]));
  return `${count} ${chosen[1]}${count === 1 ? "" : "s"} ago`;
}
