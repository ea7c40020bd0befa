import { describe, expect, it } from "vitest";
import { SHARE_LINK_TEXT } from "../../../common/shareLinks";
import { browserLabel, countryLabel, expiryText, formatViews, newLinkRequest, NewLinkForm } from "./shareLinks";

describe("formatViews", () => {
  it("shows the limit when there is one", () => {
    expect(formatViews(3, 10)).toBe("3 / 10");
    expect(formatViews(0, 2)).toBe("0 / 2");
  });
  it("counts views without a limit", () => {
    expect(formatViews(3, null)).toBe("3 views");
    expect(formatViews(1, null)).toBe("1 view");
    expect(formatViews(0, null)).toBe("0 views");
  });
});

describe("expiryText", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  it("says when there is none", () => {
    expect(expiryText({ expires_at: null }, now)).toEqual({
      label: "No expiry",
      title: undefined,
    });
  });
  it("counts down to a future expiry and gives the exact time as a title", () => {
    const text = expiryText({ expires_at: "2026-03-04T12:00:00Z" }, now);
    expect(text.label).toBe("Expires in 3 days");
    expect(text.title).toMatch(/^Expires /);
  });
  it("says a past expiry happened", () => {
    expect(expiryText({ expires_at: "2026-02-01T12:00:00Z" }, now).label).toMatch(/^Expired /);
    expect(expiryText({ expires_at: "2026-03-01T12:00:00Z" }, now).label).toMatch(/^Expired /);
  });
});

describe("countryLabel", () => {
  it("names a known code and dashes an unknown one", () => {
    expect(countryLabel("DE", "en")).toBe("Germany");
    expect(countryLabel("fr", "en")).toBe("France");
    expect(countryLabel(null)).toBe("—");
    expect(countryLabel("")).toBe("—");
  });
  it("keeps a code Intl cannot name", () => {
    expect(countryLabel("not a code", "en")).toBe("not a code");
  });
});

describe("browserLabel", () => {
  it("names browser and system briefly", () => {
    expect(
      browserLabel("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"),
    ).toBe("Chrome 131 on macOS");
    expect(browserLabel("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe("Firefox 133 on Linux");
  });
  it("falls back when there is nothing to read", () => {
    expect(browserLabel(null)).toBe("Unknown browser");
    expect(browserLabel("curl/8.5.0")).toBe("Unknown browser");
  });
});

describe("newLinkRequest", () => {
  const blank = {
    name: "Client review",
    expiresAt: "",
    password: "",
    maxViews: "",
  };

  it("turns empty optional fields into nulls", () => {
    expect(newLinkRequest(blank)).toEqual({
      ok: true,
      body: {
        name: "Client review",
        expiresAt: null,
        password: null,
        maxViews: null,
      },
    });
  });

  it("takes a view limit, a password and a local expiry time", () => {
    const result = newLinkRequest({
      name: "Board",
      expiresAt: "2999-01-02T03:04",
      password: "letmein",
      maxViews: " 2 ",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.body.maxViews).toBe(2);
    expect(result.body.password).toBe("letmein");
    expect(result.body.expiresAt).toBe(new Date("2999-01-02T03:04").toISOString());
  });

  it("puts each problem under its field", () => {
    const result = newLinkRequest({
      name: "  ",
      expiresAt: "2000-01-01T00:00",
      password: "abc",
      maxViews: "1.5",
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: SHARE_LINK_TEXT.nameRequired,
        expiresAt: SHARE_LINK_TEXT.expiryInPast,
        password: "Password must be at least 4 characters",
        maxViews: SHARE_LINK_TEXT.maxViews,
      },
    });
  });

  it("refuses a limit of zero or beyond a million, and a nonsense time", () => {
    expect(newLinkRequest({ ...blank, maxViews: "0" })).toEqual({
      ok: false,
      errors: { maxViews: SHARE_LINK_TEXT.maxViews },
    });
    expect(newLinkRequest({ ...blank, maxViews: "1000001" })).toEqual({
      ok: false,
      errors: { maxViews: SHARE_LINK_TEXT.maxViews },
    });
    expect(newLinkRequest({ ...blank, expiresAt: "tomorrow" })).toEqual({
      ok: false,
      errors: { expiresAt: SHARE_LINK_TEXT.invalidTime },
    });
  });
});

describe("NewLinkForm", () => {
  it("is newLinkRequest as the dialog's form: the request, or each message under its field", () => {
    const blank = { name: "Board", expiresAt: "", password: "", maxViews: "" };
    expect(NewLinkForm.parse(blank)).toEqual({
      name: "Board",
      expiresAt: null,
      password: null,
      maxViews: null,
    });
    const wrong = NewLinkForm.safeParse({
      ...blank,
      expiresAt: "tomorrow",
      maxViews: "many",
    });
    expect(wrong.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["expiresAt", SHARE_LINK_TEXT.invalidTime],
      ["maxViews", SHARE_LINK_TEXT.maxViews],
    ]);
  });
});
