// How a signed-in session is described in the Active sessions list.
import type { SessionInfo } from "../../../common/account";

/** "Chrome 131 on macOS", or just the browser when the OS is unknown. */
export function sessionTitle(session: Pick<SessionInfo, "browser" | "os">): string {
  return session.os ? `${session.browser} on ${session.os}` : session.browser;
}

/**
 * An address as people read it: IPv4 unchanged, IPv6 in its short form (RFC 5952: no leading
 * zeros, the longest run of zero groups as "::"), so "0000:0000:…:0001" reads "::1".
 */
export function formatIp(ip: string): string {
  if (!ip.includes(":") || ip.includes("::") || ip.includes(".")) return ip.toLowerCase();
  const groups = ip
    .toLowerCase()
    .split(":")
    .map((group) => group.replace(/^0+(?=.)/, ""));
  if (groups.length !== 8) return ip.toLowerCase();
  let best = { start: -1, length: 0 };
  for (let i = 0; i < groups.length;) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let end = i;
    while (end < groups.length && groups[end] === "0") end++;
    if (end - i > best.length) best = { start: i, length: end - i };
    i = end;
  }
  if (best.length < 2) return groups.join(":");
  const head = groups.slice(0, best.start).join(":");
  const tail = groups.slice(best.start + best.length).join(":");
  return `${head}::${tail}`;
}

/** The address to show, or null when there is none worth showing (missing, or all zeros). */
export function sessionAddress(ip: string | null): string | null {
  if (!ip) return null;
  const short = formatIp(ip);
  return short === "::" || short === "0.0.0.0" ? null : short;
}
