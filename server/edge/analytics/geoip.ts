// Country of an IP address from an operator-supplied CSV of ranges, `first_ip,last_ip,country`
// per line: the form of DB-IP's free "IP to Country Lite" download, and easy to make from others.
// Loaded once at start into sorted arrays and searched by bisection; IPv4 and IPv6 apart.
import { readFile } from "node:fs/promises";
import { isIPv4, isIPv6 } from "node:net";
import { unmappedIPv4 } from "../../http/address";

export interface GeoIp {
  /** ISO 3166 alpha-2 code, or null when the address is in no range. */
  country(address: string): string | null;
  readonly ranges: number;
}

interface Table<N> {
  starts: N[];
  ends: N[];
  codes: string[];
}

const COUNTRY = /^[A-Z]{2}$/;

function ipv4ToNumber(address: string): number {
  const parts = address.split(".");
  return ((Number(parts[0]) << 24) >>> 0) + (Number(parts[1]) << 16) + (Number(parts[2]) << 8) + Number(parts[3]);
}

function ipv6ToBigInt(address: string): bigint {
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  let text = address;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (isIPv4(tail)) {
    const n = ipv4ToNumber(tail);
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = rest === undefined || rest === "" ? [] : rest.split(":");
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  let value = 0n;
  for (const group of groups) value = (value << 16n) + BigInt(parseInt(group, 16));
  return value;
}

function find<N extends number | bigint>(table: Table<N>, value: N): string | null {
  let low = 0;
  let high = table.starts.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (table.starts[mid]! > value) high = mid - 1;
    else if (table.ends[mid]! < value) low = mid + 1;
    else return table.codes[mid]!;
  }
  return null;
}

function sortTable<N extends number | bigint>(rows: Array<[N, N, string]>): Table<N> {
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { starts: rows.map((r) => r[0]), ends: rows.map((r) => r[1]), codes: rows.map((r) => r[2]) };
}

/** Parses the CSV; throws with the line number of the first bad line. */
export function parseGeoIpCsv(text: string): GeoIp {
  const v4: Array<[number, number, string]> = [];
  const v6: Array<[bigint, bigint, string]> = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [first, last, code] = line.split(",").map((field) => field.trim().replace(/^"|"$/g, ""));
    const country = code?.toUpperCase();
    if (first === undefined || last === undefined || country === undefined || !COUNTRY.test(country)) {
      // DB-IP writes "ZZ" for unassigned ranges: a valid line that names no country.
      throw new Error(`GeoIP CSV line ${i + 1}: expected first_ip,last_ip,country_code`);
    }
    if (isIPv4(first) && isIPv4(last)) v4.push([ipv4ToNumber(first), ipv4ToNumber(last), country]);
    else if (isIPv6(first) && isIPv6(last)) v6.push([ipv6ToBigInt(first), ipv6ToBigInt(last), country]);
    else throw new Error(`GeoIP CSV line ${i + 1}: "${first}" and "${last}" are not both IPv4 or both IPv6 addresses`);
  }
  const table4 = sortTable(v4);
  const table6 = sortTable(v6);
  return {
    ranges: v4.length + v6.length,
    country(address) {
      const plain = unmappedIPv4(address);
      let code: string | null = null;
      if (isIPv4(plain)) code = find(table4, ipv4ToNumber(plain));
      else if (isIPv6(plain)) code = find(table6, ipv6ToBigInt(plain));
      return code === "ZZ" ? null : code;
    },
  };
}

export async function loadGeoIp(file: string): Promise<GeoIp> {
  return parseGeoIpCsv(await readFile(file, "utf8"));
}
