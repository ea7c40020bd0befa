// The terms of service and privacy policy. Berth ships sensible defaults; an operator replaces
// either with a Markdown file of their own (BERTH_TERMS_FILE, BERTH_PRIVACY_FILE), read once at
// startup so that a missing file stops the process instead of breaking the page later.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { LegalDocumentResponse } from "../../common/api";
import { projectRoot } from "../paths";

export type LegalDocumentName = "terms" | "privacy";
export type LegalDocuments = Record<LegalDocumentName, LegalDocumentResponse>;

const TITLES: Record<LegalDocumentName, string> = {
  terms: "Terms of Service",
  privacy: "Privacy Policy",
};

export class LegalFileError extends Error {}

function load(name: LegalDocumentName, customFile: string | undefined): LegalDocumentResponse {
  if (customFile) {
    try {
      return { title: TITLES[name], markdown: readFileSync(path.resolve(customFile), "utf8"), custom: true };
    } catch (error) {
      throw new LegalFileError(`Cannot read the ${TITLES[name].toLowerCase()} from ${customFile}: ${(error as Error).message}`);
    }
  }
  const file = path.join(projectRoot, "server", "legal", `${name}.md`);
  return { title: TITLES[name], markdown: readFileSync(file, "utf8"), custom: false };
}

export function loadLegalDocuments(files: { termsFile?: string | undefined; privacyFile?: string | undefined }): LegalDocuments {
  return { terms: load("terms", files.termsFile), privacy: load("privacy", files.privacyFile) };
}
