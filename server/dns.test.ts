// The custom-domain resolver against a real DNS server on loopback (test/dnsServer.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalIp, createDnsLookup, type DnsLookup } from "./dns";
import { TestDnsServer } from "./test/dnsServer";

describe("DNS lookups through BERTH_DNS_SERVERS", () => {
  let server: TestDnsServer;
  let dns: DnsLookup;
  beforeAll(async () => {
    server = await TestDnsServer.start();
    dns = createDnsLookup([server.address]);
    server.set("_berth.www.example.test", { txt: ["berth-abc", "v=spf1 -all"] });
    server.set("www.example.test", { cname: "qwert.sites.test" });
    server.set("qwert.sites.test", { a: ["192.0.2.10"], aaaa: ["2001:DB8:0:0:0:0:0:1"] });
    server.set("example.test", { a: ["192.0.2.10"] });
    server.failing.add("broken.example.test");
  });
  afterAll(() => server.close());

  it("reads TXT records", async () => {
    expect(await dns.txt("_berth.www.example.test")).toEqual({ ok: true, records: ["berth-abc", "v=spf1 -all"] });
  });

  it("reads a CNAME, lower case and without the trailing dot", async () => {
    expect(await dns.cname("WWW.example.test")).toEqual({ ok: true, records: ["qwert.sites.test"] });
  });

  it("reads A and AAAA together, through a CNAME, in canonical form", async () => {
    expect(await dns.addresses("www.example.test")).toEqual({ ok: true, records: ["192.0.2.10", "2001:db8::1"] });
    expect(await dns.addresses("example.test")).toEqual({ ok: true, records: ["192.0.2.10"] });
  });

  it("answers no records for a name that does not exist or has none of the type", async () => {
    expect(await dns.txt("_berth.nothing.example.test")).toEqual({ ok: true, records: [] });
    expect(await dns.cname("example.test")).toEqual({ ok: true, records: [] });
  });

  it("tells a failing resolver apart from a missing record", async () => {
    expect(await dns.txt("broken.example.test")).toEqual({ ok: false, failed: true });
    expect(await dns.addresses("broken.example.test")).toEqual({ ok: false, failed: true });
  });

  it("tells a resolver that does not answer at all", async () => {
    const silent = await TestDnsServer.start();
    const address = silent.address;
    await silent.close();
    const started = Date.now();
    expect(await createDnsLookup([address]).txt("example.test")).toEqual({ ok: false, failed: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("canonicalIp", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    [" 192.0.2.1 ", "192.0.2.1"],
    ["2001:DB8::1", "2001:db8::1"],
    ["2001:db8:0:0:0:0:0:1", "2001:db8::1"],
    ["::ffff:192.0.2.1", "::ffff:c000:201"],
    ["example.com", undefined],
    ["192.0.2", undefined],
    ["", undefined],
  ])("%s → %s", (input, expected) => {
    expect(canonicalIp(input)).toBe(expected);
  });
});
