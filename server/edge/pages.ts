// Small self-contained HTML pages the edge answers with. Inline CSS only: a site host must not
// load anything from the dashboard's origin.
const STYLE = `body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:28rem;padding:2rem;text-align:center}
.code{font-size:3.5rem;font-weight:800;letter-spacing:-.04em;color:#4f46e5;margin:0}
h1{font-size:1.5rem;margin:.5rem 0}
p{color:#475569;line-height:1.6}
footer{margin-top:2rem;font-size:.8rem;color:#94a3b8}`;

export function notFoundPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Site not found</title><style>${STYLE}</style></head><body><main><p class="code">404</p><h1>Site not found</h1><p>There is no site at this address. It may have been deleted, or the link may be mistyped.</p><footer>Hosted with Berth</footer></main></body></html>`;
}
