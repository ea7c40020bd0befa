// The default terms and privacy policy are Markdown an operator may replace, so they cannot read
// the grace period from the code: this ties their sentences to it.
import { describe, expect, it } from "vitest";
import { loadLegalDocuments } from "./documents";
import { DELETION_GRACE_DAYS } from "../../common/sites";

describe("the default legal documents", () => {
  it("state the deletion grace period the worker applies", () => {
    const { terms, privacy } = loadLegalDocuments({});
    expect(terms.markdown).toContain(`When you delete a site it is kept for ${DELETION_GRACE_DAYS} days`);
    expect(privacy.markdown).toContain(`Deleted sites are removed for good ${DELETION_GRACE_DAYS} days after deletion`);
  });
});
