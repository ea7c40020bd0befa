// Which addresses a webhook may be sent to: public unicast only. Anything else (loopback, private,
// carrier-grade NAT, link-local, unique-local, multicast, documentation and other reserved ranges)
// could make Berth call services on its own network for whoever adds a webhook, so such addresses
// are refused unless the operator allows them (BERTH_WEBHOOK_ALLOW_PRIVATE). IPv6 forms that carry
// an IPv4 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that
// IPv4 address, so ::ffff:127.0.0.1 is loopback however it is spelled.
import { isIPv4, isIPv6 } from "node:net";

type Range = readonly [network: number, bits: number];

const v4 = (text: string): number => text.split(".").reduce((n, part) => n * 256 + Number(part), 0);

/** IPv4 ranges that are not public unicast (IANA's special-purpose registry, multicast, reserved). */
const V4_NOT_PUBLIC: readonly Range[] = (
  [
    ["0.0.0.0", 8], // "this network"
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local (cloud metadata services live here)
    ["172.16.0.0", 12], // private
    ["192.0.0.0", 24], // IETF protocol assignments
    ["192.0.2.0", 24], // documentation
    ["192.88.99.0", 24], // 6to4 relay anycast
    ["192.168.0.0", 16], // private
    ["198.18.0.0", 15], // benchmarking
    ["198.51.100.0", 24], // documentation
    ["203.0.113.0", 24], // documentation
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, and the broadcast address
  ] as const
).map(([network, bits]) => [v4(network), bits] as const);

function inV4Range(address: number, [network, bits]: Range): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(address / size) === Math.floor(network / size);
}

function isPublicV4(address: number): boolean {
  return !V4_NOT_PUBLIC.some((range) => inV4Range(address, range));
}

/** The eight 16-bit groups of an IPv6 address (a zone id is dropped; dotted IPv4 tails expanded). */
function v6Groups(text: string): number[] {
  let address = text.split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const n = v4(dotted[1]!);
    address = `${address.slice(0, dotted.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head = "", tail] = address.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const embeddedV4 = (high: number, low: number) => high * 65536 + low;

function isPublicV6(groups: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeros = (...gs: number[]) => gs.every((g) => g === 0);
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64's well-known prefix) reach that IPv4 address.
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return isPublicV4(embeddedV4(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return isPublicV4(embeddedV4(g6, g7));
  // Global unicast is 2000::/3; everything outside it (::, ::1, IPv4-compatible, fc00::/7, fe80::/10, ff00::/8…) is not public.
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && g1 < 0x200) return false; // 2001::/23, IETF protocol assignments (Teredo among them)
  if (g0 === 0x2001 && g1 === 0xdb8) return false; // documentation
  if ((g0 & 0xfff0) === 0x3ff0) return false; // 3fff::/20, documentation
  if (g0 === 0x2002) return isPublicV4(embeddedV4(g1, g2)); // 6to4 carries the IPv4 address of its relay
  return true;
}

/** Whether `address` (an IPv4 or IPv6 literal) is public unicast; false for anything that is not an address. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return isPublicV4(v4(address));
  if (isIPv6(address)) return isPublicV6(v6Groups(address));
  return false;
}
