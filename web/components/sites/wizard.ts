// The create-site wizard's rules: step 1 needs a name and an assigned subdomain, submit needs a
// file; a toast in the exact wording (title + description) tells the first thing missing. Also the
// sites' host, and what publishing will do with the file.
import { SITE_TEXT } from "../../../common/sites";
import { extensionOf } from "../../../common/uploads";

export interface ToastText {
  title: string;
  description: string;
}

/** The wizard's fields as react-hook-form reports their errors. */
type FieldErrors = Partial<Record<"name" | "subdomain", { message?: string | undefined }>>;

// The form is the server's CreateSiteFields; each of its messages has a fixed second line for the toast.
const DESCRIPTIONS: Record<string, string> = {
  [SITE_TEXT.nameRequired]: SITE_TEXT.nameRequiredDescription,
  [SITE_TEXT.subdomainRequired]: SITE_TEXT.subdomainRequiredDescription,
};

/** The toast for what step 1 lacks: the name first (blank counts as missing), then the subdomain. */
export function basicsProblem(errors: FieldErrors): ToastText | null {
  for (const field of ["name", "subdomain"] as const) {
    const title = errors[field]?.message;
    if (title) return { title, description: DESCRIPTIONS[title] ?? "" };
  }
  return null;
}

/** Submitting step 2 without a file. */
export const FILE_REQUIRED: ToastText = {
  title: SITE_TEXT.fileRequired,
  description: SITE_TEXT.fileRequiredDescription,
};

/** "localhost" on port 5173 → "localhost:5173"; default ports are not shown. */
export function sitesHost(sitesDomain: string, port: string): string {
  return port && port !== "80" && port !== "443" ? `${sitesDomain}:${port}` : sitesDomain;
}

/** What publishing does with each kind of upload, so the user knows what the link will show. */
export function publishExplanation(name: string): string {
  const ext = extensionOf(name);
  if (ext === "zip") return "The archive is unpacked and its index.html is served as your home page, with every other file beside it.";
  if (ext === "pdf") return "Your PDF gets a viewer page at the site's address, ready to read in any browser.";
  if (["jpg", "jpeg", "png", "gif"].includes(ext)) return "Your image gets its own page at the site's address.";
  if (ext === "html" || ext === "htm") return "Your HTML file is served as the page at the site's address.";
  return `The file is published as is, at /${name}.`;
}
