import { describe, expect, it } from "vitest";
import { DOMAIN_TEXT, DOMAIN_UI_TEXT, type DnsRecord } from "../../../common/domains";
import { NewDomainForm, orderedRecords, sitesForDomains, triesLabel } from "./domains";

describe("triesLabel", () => {
  it("counts the tries of a running step out of ten", () => {
    expect(triesLabel({ status: "dns_check", attempts: 3 })).toBe("Try 3 of 10");
    expect(triesLabel({ status: "certificate", attempts: 1 })).toBe("Try 1 of 10");
    expect(triesLabel({ status: "pending", attempts: 12 })).toBe("Try 10 of 10");
  });

  it("says how many tries a failed domain used", () => {
    expect(triesLabel({ status: "failed", attempts: 10 })).toBe("10 of 10 tries used");
  });

  it("says nothing before the first try or once active", () => {
    expect(triesLabel({ status: "pending", attempts: 0 })).toBeNull();
    expect(triesLabel({ status: "active", attempts: 4 })).toBeNull();
  });
});

describe("orderedRecords", () => {
  it("puts the pointing records before the TXT proof, keeping their own order", () => {
    const records: DnsRecord[] = [
      { type: "TXT", name: "_berth.example.com", value: "token" },
      { type: "AAAA", name: "example.com", value: "2001:db8::1" },
      { type: "A", name: "example.com", value: "192.0.2.1" },
      { type: "A", name: "example.com", value: "192.0.2.2" },
    ];
    expect(orderedRecords(records).map((r) => r.value)).toEqual(["192.0.2.1", "192.0.2.2", "2001:db8::1", "token"]);
    expect(records[0]!.type).toBe("TXT");
  });
});

describe("sitesForDomains", () => {
  it("leaves out sites marked for deletion", () => {
    expect(
      sitesForDomains([
        { id: "a", is_deleted: false },
        { id: "b", is_deleted: true },
      ]).map((s) => s.id),
    ).toEqual(["a"]);
    expect(sitesForDomains(undefined)).toEqual([]);
  });
});

describe("NewDomainForm", () => {
  it("needs a site and a domain name, and says both at once", () => {
    const result = NewDomainForm.safeParse({
      siteId: "",
      domain: "not a domain",
    });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["domain", DOMAIN_TEXT.invalid],
      ["siteId", DOMAIN_UI_TEXT.siteRequired],
    ]);
  });
  it("sends the name the server would store", () => {
    expect(NewDomainForm.parse({ siteId: "s1", domain: "WWW.Example.com." })).toEqual({ siteId: "s1", domain: "www.example.com" });
  });
});
