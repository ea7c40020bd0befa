// Small self-contained HTML pages the edge answers with. Inline CSS only: a site host must not
// load anything from the dashboard's origin. Every name that came from an upload is escaped.
import { SHARE_PAGE_TEXT } from "../../common/shareLinks";

const STYLE = `*{box-sizing:border-box}body{margin:0;min-height:100vh;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
.center{min-height:100vh;display:grid;place-items:center}
main{max-width:28rem;padding:2rem;text-align:center}
.code{font-size:3.5rem;font-weight:800;letter-spacing:-.04em;color:#4f46e5;margin:0}
h1{font-size:1.5rem;margin:.5rem 0;word-break:break-word}
p{color:#475569;line-height:1.6}
footer{margin-top:2rem;font-size:.8rem;color:#94a3b8}
.bar{display:flex;align-items:center;gap:1rem;justify-content:space-between;padding:.75rem 1.25rem;background:#fff;border-bottom:1px solid #e2e8f0}
.bar h1{font-size:1rem;margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.btn{display:inline-flex;align-items:center;gap:.4rem;padding:.5rem .9rem;border-radius:.5rem;background:#4f46e5;color:#fff;text-decoration:none;font-size:.875rem;font-weight:600;white-space:nowrap}
.viewer{display:block;width:100%;height:calc(100vh - 3.5rem);border:0}
.image{display:flex;justify-content:center;align-items:center;min-height:calc(100vh - 3.5rem);padding:1.5rem}
.image img{max-width:100%;max-height:calc(100vh - 6.5rem);box-shadow:0 10px 30px rgba(15,23,42,.12);border-radius:.5rem;background:#fff}
.list{max-width:48rem;margin:2rem auto;padding:0 1.25rem}
.list ul{list-style:none;margin:1rem 0 0;padding:0;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;overflow:hidden}
.list li+li{border-top:1px solid #e2e8f0}
.list a{display:flex;justify-content:space-between;gap:1rem;padding:.75rem 1rem;color:#1e293b;text-decoration:none;word-break:break-all}
.list a:hover{background:#f1f5f9}
.list small{color:#64748b;white-space:nowrap}`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export { hrefFor } from "../sites/requestPath";
import { hrefFor } from "../sites/requestPath";

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function notFoundPage(): string {
  return page(
    "Site not found",
    `<div class="center"><main><p class="code">404</p><h1>Site not found</h1><p>There is no site at this address. It may have been deleted, or the link may be mistyped.</p><footer>Hosted with Berth</footer></main></div>`,
  ).replace("<head>", '<head><meta name="robots" content="noindex">');
}

export function expiredPage(): string {
  return page(
    "This site has expired",
    `<div class="center"><main><p class="code">410</p><h1>This site has expired</h1><p>The owner set this site to stop being available after a date that has now passed. If you need it, ask them to extend it.</p><footer>Hosted with Berth</footer></main></div>`,
  ).replace("<head>", '<head><meta name="robots" content="noindex">');
}

const PASSWORD_CSS = `form{margin-top:1.5rem;text-align:left}label{display:block;font-size:.875rem;font-weight:600;margin-bottom:.4rem}
input[type=password]{width:100%;padding:.7rem .8rem;font-size:1rem;border:1px solid #cbd5e1;border-radius:.5rem;background:#fff;color:#0f172a}
input[type=password]:focus{outline:2px solid #4f46e5;outline-offset:1px;border-color:#4f46e5}
button{margin-top:1rem;width:100%;padding:.7rem;border:0;border-radius:.5rem;background:#4f46e5;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
button:hover{background:#4338ca}.error{color:#b91c1c;font-size:.875rem;margin:.6rem 0 0}
.lock{width:3rem;height:3rem;margin:0 auto;display:grid;place-items:center;border-radius:999px;background:#eef2ff;color:#4f46e5}`;

/** A password form page; `action` and `hidden` are trusted markup, the rest is escaped. */
function passwordFormPage(o: { title: string; heading: string; body: string; action: string; hidden: string; error: string | undefined }): string {
  const { error } = o;
  const errorLine = error ? `<p class="error" id="password-error" role="alert">${escapeHtml(error)}</p>` : "";
  return page(
    o.title,
    `<div class="center"><main><div class="lock" aria-hidden="true"><svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/></svg></div><h1>${escapeHtml(o.heading)}</h1><p>${escapeHtml(o.body)}</p><form method="post" action="${o.action}">${o.hidden}<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus${error ? ' aria-invalid="true" aria-describedby="password-error"' : ""}>${errorLine}<button type="submit">Continue</button></form><footer>Hosted with Berth</footer></main></div>`,
  )
    .replace("<head>", '<head><meta name="robots" content="noindex">')
    .replace("</style>", `${PASSWORD_CSS}</style>`);
}

/**
 * The password page of a protected site. It names neither the site nor its owner. `next` is the
 * path to return to (already checked by safeNext); `error` the line shown under the field.
 */
export function passwordPage(next: string, error?: string): string {
  return passwordFormPage({
    title: "Password required",
    heading: "This site is password protected",
    body: "Enter the password to view it.",
    action: "/.berth/password",
    hidden: `<input type="hidden" name="next" value="${escapeHtml(next)}">`,
    error,
  });
}

/** A share link's password page; the form posts back to the link itself. */
export function shareLinkPasswordPage(path: string, error?: string): string {
  return passwordFormPage({
    title: "Password required",
    heading: SHARE_PAGE_TEXT.passwordTitle,
    body: SHARE_PAGE_TEXT.passwordBody,
    action: escapeHtml(path),
    hidden: "",
    error,
  });
}

function statusPage(code: number, title: string, body: string): string {
  return page(
    title,
    `<div class="center"><main><p class="code">${code}</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p><footer>Hosted with Berth</footer></main></div>`,
  ).replace("<head>", '<head><meta name="robots" content="noindex">');
}

/** An expired, revoked or used-up share link. */
export function shareLinkGonePage(): string {
  return statusPage(410, SHARE_PAGE_TEXT.goneTitle, SHARE_PAGE_TEXT.goneBody);
}

/** A token Berth did not make, or a link of another site or one since deleted. */
export function shareLinkNotFoundPage(): string {
  return statusPage(404, SHARE_PAGE_TEXT.notFoundTitle, SHARE_PAGE_TEXT.notFoundBody);
}

/** A private site, to a browser without a share link. Names neither the site nor its owner. */
export function privateSitePage(): string {
  return statusPage(403, SHARE_PAGE_TEXT.privateTitle, SHARE_PAGE_TEXT.privateBody);
}

export function fileNotFoundPage(): string {
  return page(
    "Page not found",
    `<div class="center"><main><p class="code">404</p><h1>Page not found</h1><p>This site has no page at this address.</p><p><a class="btn" href="/">Go to the home page</a></p></main></div>`,
  );
}

export function pdfViewerPage(path: string): string {
  const name = path.split("/").pop()!;
  const href = escapeHtml(hrefFor(path));
  return page(
    name,
    `<div class="bar"><h1>${escapeHtml(name)}</h1><a class="btn" href="${href}" download>Download PDF</a></div><iframe class="viewer" src="${href}" title="${escapeHtml(name)}"></iframe>`,
  );
}

export function imagePage(path: string): string {
  const name = path.split("/").pop()!;
  const href = escapeHtml(hrefFor(path));
  return page(
    name,
    `<div class="bar"><h1>${escapeHtml(name)}</h1><a class="btn" href="${href}" download>Download</a></div><div class="image"><img src="${href}" alt="${escapeHtml(name)}"></div>`,
  );
}

export function listingPage(files: { path: string; size: number }[], formatSize: (bytes: number) => string): string {
  const items = [...files]
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((f) => `<li><a href="${escapeHtml(hrefFor(f.path))}"><span>${escapeHtml(f.path)}</span><small>${formatSize(f.size)}</small></a></li>`)
    .join("");
  return page("Files", `<div class="list"><h1>Files</h1><p>This site has no index.html, so here is everything it holds.</p><ul>${items}</ul></div>`);
}
