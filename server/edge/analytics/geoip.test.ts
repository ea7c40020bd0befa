import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadGeoIp, parseGeoIpCsv } from "./geoip";

// The shape of DB-IP's "IP to Country Lite" CSV, with made-up ranges.
const CSV = [
  "1.0.0.0,1.0.0.255,AU",
  "1.0.1.0,1.0.3.255,CN",
  '"203.0.113.0","203.0.113.255","NZ"',
  "198.51.100.0,198.51.100.255,ZZ",
  "2001:db8::,2001:db8:0:ffff:ffff:ffff:ffff:ffff,DE",
  "2001:db8:1::,2001:db8:1:ffff:ffff:ffff:ffff:ffff,fr",
  "",
].join("\n");

describe("GeoIP country lookups", () => {
  const geo = parseGeoIpCsv(CSV);

  it("finds the range holding an address, IPv4 and IPv6, at the edges of ranges too", () => {
    expect(geo.ranges).toBe(6);
    expect(geo.country("1.0.0.0")).toBe("AU");
    expect(geo.country("1.0.0.255")).toBe("AU");
    expect(geo.country("1.0.1.0")).toBe("CN");
    expect(geo.country("1.0.3.255")).toBe("CN");
    expect(geo.country("203.0.113.77")).toBe("NZ");
    expect(geo.country("2001:db8::1")).toBe("DE");
    expect(geo.country("2001:db8:0:ffff:ffff:ffff:ffff:ffff")).toBe("DE");
    expect(geo.country("2001:db8:1:2::3")).toBe("FR");
  });

  it("answers null outside every range, for unassigned ranges and for non-addresses", () => {
    expect(geo.country("1.0.4.0")).toBeNull();
    expect(geo.country("0.255.255.255")).toBeNull();
    expect(geo.country("198.51.100.5")).toBeNull();
    expect(geo.country("2001:db9::1")).toBeNull();
    expect(geo.country("unknown")).toBeNull();
  });

  it("reads IPv4 addresses as dual-stack sockets report them", () => {
    expect(geo.country("::ffff:203.0.113.5")).toBe("NZ");
  });

  it("refuses a bad line with its number", () => {
    expect(() => parseGeoIpCsv("1.0.0.0,1.0.0.255,AU\n1.0.1.0,2001:db8::,CN")).toThrow(/line 2/);
    expect(() => parseGeoIpCsv("1.0.0.0,1.0.0.255,Australia")).toThrow(/line 1/);
    expect(() => parseGeoIpCsv("1.0.0.0")).toThrow(/line 1/);
  });

  it("loads from a file", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "berth-geoip-"));
    try {
      writeFileSync(path.join(dir, "countries.csv"), CSV);
      expect((await loadGeoIp(path.join(dir, "countries.csv"))).country("1.0.2.3")).toBe("CN");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
