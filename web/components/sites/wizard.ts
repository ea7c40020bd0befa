// The create-site wizard's rules (spec sections 4 and 5), as pure functions: each returns the
// spec's toast (title + description) for the first thing missing, or null when the step may go on.
import { SITE_TEXT } from "../../../common/sites";
import { extensionOf } from "../../../common/uploads";

export interface ToastText {
  title: string;
  description: string;
}

export interface BasicInfo {
  name: string;
  subdomain: string | null | undefined;
}

/** Step 1 → step 2 only with a name that is not blank and an assigned subdomain. */
export function validateBasicInfo({
  name,
  subdomain,
}: BasicInfo): ToastText | null {
  if (!name.trim())
    return {
      title: SITE_TEXT.nameRequired,
      description: SITE_TEXT.nameRequiredDescription,
    };
  if (!subdomain?.trim()) {
    return {
      title: SITE_TEXT.subdomainRequired,
      description: SITE_TEXT.subdomainRequiredDescription,
    };
  }
  return null;
}

/** Submit is valid only with a name, a subdomain and a file. */
export function validateSubmit(
  info: BasicInfo,
  file: unknown,
): ToastText | null {
  const basics = validateBasicInfo(info);
  if (basics) return basics;
  if (!file)
    return {
      title: SITE_TEXT.fileRequired,
      description: SITE_TEXT.fileRequiredDescription,
    };
  return null;
}

/** "localhost" on port 5173 → "localhost:5173"; default ports are not shown. */
export function sitesHost(sitesDomain: string, port: string): string {
  return port && port !== "80" && port !== "443"
    ? `${sitesDomain}:${port}`
    : sitesDomain;
}

/** What publishing does with each kind of upload, so the user knows what the link will show. */
export function publishExplanation(name: string): string {
  const ext = extensionOf(name);
  if (ext === "zip")
    return "The archive is unpacked and its index.html is served as your home page, with every other file beside it.";
  if (ext === "pdf")
    return "Your PDF gets a viewer page at the site's address, ready to read in any browser.";
  if (["jpg", "jpeg", "png", "gif"].includes(ext))
    return "Your image gets its own page at the site's address.";
  if (ext === "html" || ext === "htm")
    return "Your HTML file is served as the page at the site's address.";
  return `The file is published as is, at /${name}.`;
}
