import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDnsLookup } from "../dns";
import { TestDnsServer } from "../test/dnsServer";
import { isPublicAddress } from "./addresses";
import { resolveWebhookTarget } from "./target";

describe("which addresses a webhook may reach", () => {
  it.each([
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.0.1",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.10",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "0:0:0:0:0:ffff:192.168.0.1",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b:1::1",
    "100::1",
    "2001::1",
    "2001:db8::1",
    "2002:7f00:1::1",
    "2002:c0a8:101::1",
    "3fff::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "ff02::1",
    "not an address",
    "",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "9.255.255.255",
    "11.0.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "172.15.255.255",
    "172.32.0.1",
    "192.0.1.1",
    "192.169.0.1",
    "198.20.0.1",
    "223.255.255.255",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::8.8.8.8",
    "2606:4700:4700::1111",
    "2a00:1450:4001:81b::200e",
    "2002:808:808::1",
    "2001:4860:4860::8888",
  ])("allows %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("a webhook URL's target", () => {
  let dnsServer: TestDnsServer;
  beforeAll(async () => {
    dnsServer = await TestDnsServer.start();
    dnsServer.zone.set("public.example", { a: ["93.184.215.14"], aaaa: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    dnsServer.zone.set("inside.example", { a: ["10.1.2.3"] });
    dnsServer.zone.set("mixed.example", { a: ["93.184.215.14", "127.0.0.1"] });
    dnsServer.zone.set("v6only.example", { aaaa: ["::ffff:169.254.169.254"] });
    dnsServer.failing.add("broken.example");
  });
  afterAll(() => dnsServer.close());
  const dns = () => createDnsLookup([dnsServer.address]);

  // Odd spellings of loopback and the metadata address: the URL parser turns each into its plain form first.
  it.each([
    ["http://2130706433/hook", "127.0.0.1"],
    ["http://0x7f.1/hook", "127.0.0.1"],
    ["http://0177.0.0.1/hook", "127.0.0.1"],
    ["http://127.1/hook", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1"],
    ["http://[0:0:0:0:0:ffff:7f00:1]:8080/hook", "::ffff:7f00:1"],
    ["http://0xa9fea9fe/latest/meta-data", "169.254.169.254"],
    ["http://[::]/hook", "::"],
    ["http://0/hook", "0.0.0.0"],
    ["http://localhost:3000/hook", "localhost"],
    ["http://api.localhost/hook", "api.localhost"],
    ["https://inside.example/hook", "inside.example"],
    ["https://mixed.example/hook", "mixed.example"],
    ["https://v6only.example/hook", "v6only.example"],
  ])("refuses %s, which is %s", async (url, host) => {
    const result = await resolveWebhookTarget(url, dns(), false);
    expect(result).toMatchObject({ ok: false, code: "webhook_private_address", message: expect.stringContaining(host) });
  });

  it("connects to the checked address of a public name, IPv4 first", async () => {
    const result = await resolveWebhookTarget("https://public.example/hook?x=1", dns(), false);
    expect(result).toMatchObject({ ok: true, target: { address: "93.184.215.14", family: 4 } });
  });

  it("says when a name does not exist or cannot be looked up", async () => {
    expect(await resolveWebhookTarget("https://missing.example/", dns(), false)).toMatchObject({ ok: false, code: "webhook_host_not_found" });
    expect(await resolveWebhookTarget("https://broken.example/", dns(), false)).toMatchObject({ ok: false, code: "webhook_lookup_failed" });
  });

  it("lets private addresses through when the operator allows them", async () => {
    expect(await resolveWebhookTarget("http://127.0.0.1:9/hook", dns(), true)).toMatchObject({ ok: true, target: { address: "127.0.0.1" } });
    expect(await resolveWebhookTarget("https://inside.example/", dns(), true)).toMatchObject({ ok: true, target: { address: "10.1.2.3" } });
    expect(await resolveWebhookTarget("http://[::1]:9/", dns(), true)).toMatchObject({ ok: true, target: { address: "::1", family: 6 } });
  });
});
