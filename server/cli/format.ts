// What the CLI prints: a table of users that reads well in a terminal.
import type { AdminUser, AdminUsersResponse } from "../../common/admin";
import { formatBytes } from "../../common/format";

const COLUMNS: [string, (user: AdminUser) => string][] = [
  ["EMAIL", (u) => u.email],
  ["NAME", (u) => u.name],
  ["PLAN", (u) => u.plan],
  ["STORAGE", (u) => formatBytes(u.storageBytes)],
  ["SITES", (u) => String(u.siteCount)],
  ["STATUS", (u) => (u.bannedAt ? "banned" : "active")],
  ["ADMIN", (u) => (u.adminByConfig ? "yes (config)" : u.isAdmin ? "yes" : "-")],
];

/** Control characters in a name must not move the cursor or change colours in the terminal. */
const printable = (text: string) =>
  Array.from(text, (c) => {
    const code = c.codePointAt(0)!;
    return code < 0x20 || (code >= 0x7f && code < 0xa0) ? "?" : c;
  }).join("");

export function formatUserTable(users: readonly AdminUser[]): string {
  const rows = [COLUMNS.map(([title]) => title), ...users.map((user) => COLUMNS.map(([, cell]) => printable(cell(user))))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n");
}

export function formatUserList(response: AdminUsersResponse): string {
  if (response.total === 0) return "No users found.";
  const pages = Math.max(1, Math.ceil(response.total / response.pageSize));
  const noun = response.total === 1 ? "user" : "users";
  if (response.users.length === 0)
    return `Page ${response.page} is past the end: ${response.total} ${noun} fill ${pages} page${pages === 1 ? "" : "s"}.`;
  const first = (response.page - 1) * response.pageSize + 1;
  const last = first + response.users.length - 1;
  const footer =
    pages === 1
      ? `${response.total} ${noun}.`
      : `Users ${first}–${last} of ${response.total} (page ${response.page} of ${pages}).${response.page < pages ? ` Next: --page ${response.page + 1}` : ""}`;
  return `${formatUserTable(response.users)}\n\n${footer}`;
}
