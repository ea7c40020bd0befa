// Client addresses as Berth counts and shows them. Every per-address limit (connections, guesses,
// messages, unknown API tokens) keys on addressKey, so a client cannot get a fresh allowance by
// switching between the addresses it holds.
import { isIPv4, isIPv6 } from "node:net";

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, how dual-stack sockets report IPv4) as the IPv4 address a person knows. */
export function unmappedIPv4(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith("::ffff:") && isIPv4(lower.slice(7)) ? lower.slice(7) : address;
}

/**
 * The key an address counts under: an IPv4 address itself (also when it comes IPv4-mapped, as on
 * a dual-stack listener), an IPv6 address by its /64, because one subscriber usually holds a
 * whole /64 and could pick a new address for every connection.
 */
export function addressKey(address: string): string {
  const unzoned = unmappedIPv4(address.split("%")[0]!);
  if (isIPv4(unzoned) || !isIPv6(unzoned)) return unzoned;
  const groups = (part: string) => (part === "" ? [] : part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])));
  const [head = "", tail] = unzoned.split("::");
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
