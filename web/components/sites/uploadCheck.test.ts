import { describe, expect, it } from "vitest";
import { checkUpload, UPLOAD_ACCEPT } from "./uploadCheck";

const MB = 1024 * 1024;

describe("checkUpload", () => {
  it("accepts an allowed type within the limit", () => {
    expect(checkUpload({ name: "index.html", type: "text/html", size: 1000 })).toBeNull();
    expect(checkUpload({ name: "site.zip", type: "", size: 50 * MB })).toBeNull();
  });

  it("accepts by extension or by MIME type, whichever matches", () => {
    expect(checkUpload({ name: "site.ZIP", type: "", size: 10 })).toBeNull();
    expect(checkUpload({ name: "report", type: "application/pdf", size: 10 })).toBeNull();
  });

  it("refuses other types with 'Unsupported file type' and the list of allowed types", () => {
    expect(checkUpload({ name: "notes.txt", type: "text/plain", size: 10 })).toEqual({
      title: "Unsupported file type",
      description: "Please upload one of the following types: .html, .htm, .css, .js, .jpg, .jpeg, .png, .gif, .pdf, .zip",
    });
  });

  it("refuses files over the limit, naming the limit applied", () => {
    expect(
      checkUpload({
        name: "big.pdf",
        type: "application/pdf",
        size: 50 * MB + 1,
      }),
    ).toEqual({
      title: "File too large",
      description: "Maximum file size is 50MB",
    });
    expect(checkUpload({ name: "big.pdf", type: "application/pdf", size: 300 * MB }, 250 * MB)?.description).toBe("Maximum file size is 250MB");
    // A plan without a largest file (null) leaves the size to the server's storage check.
    expect(checkUpload({ name: "big.pdf", type: "application/pdf", size: 3000 * MB }, null)).toBeNull();
    expect(checkUpload({ name: "big.exe", type: "application/octet-stream", size: 1 }, null)?.title).toBe("Unsupported file type");
  });
});

describe("UPLOAD_ACCEPT", () => {
  it("offers every extension and the MIME types browsers give them", () => {
    const accepted = UPLOAD_ACCEPT.split(",");
    for (const entry of [".html", ".zip", ".pdf", "application/x-zip-compressed", "text/javascript"]) expect(accepted).toContain(entry);
  });
});
