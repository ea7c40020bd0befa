import { describe, expect, it } from "vitest";
import { addressKey, unmappedIPv4 } from "./address";

describe("addressKey", () => {
  it.each([
    ["198.51.100.7", "198.51.100.7"],
    // A dual-stack listener reports IPv4 clients IPv4-mapped: the same client either way.
    ["::ffff:198.51.100.7", "198.51.100.7"],
    ["::FFFF:198.51.100.7", "198.51.100.7"],
    // IPv6 by /64, however the address is written.
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:0000:0000:0000:0001", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["64:ff9b::198.51.100.7", "64:ff9b:0:0::/64"],
  ])("%s counts as %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it("keeps different /64s apart", () => {
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
  });
});

describe("unmappedIPv4", () => {
  // How a token's last use is recorded: a dual-stack server sees an IPv4 client as ::ffff:a.b.c.d.
  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:203.0.113.7", "203.0.113.7"],
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8::1", "2001:db8::1"],
    ["::ffff:2001:db8::1", "::ffff:2001:db8::1"],
  ])("%s → %s", (address, shown) => {
    expect(unmappedIPv4(address)).toBe(shown);
  });
});
