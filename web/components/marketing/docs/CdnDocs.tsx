// The docs page's CDN section: what the edge sends that a CDN reads, how to set a CDN up in front
// of Berth, and how to purge it after a deploy. The header values come from common/siteCaching.ts,
// the same constants the edge sends.
import { Link } from "react-router";
import { IMMUTABLE_CACHE, LIVE_CACHE, NEVER_CACHE } from "../../../../common/siteCaching";
import { Callout, CodeBlock, DocHeading, DocSection, InlineCode } from "./DocBits";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

const ROWS: { what: string; header: string }[] = [
  { what: "A live site's files (HTML, images, everything at its usual address)", header: LIVE_CACHE },
  {
    what: "Files whose name carries a content hash (app.3f9a2c1b.js) and every file on a version address ({subdomain}--v12)",
    header: IMMUTABLE_CACHE,
  },
  { what: "Password-protected and private sites, share links, the password page, Berth's 404 and 410 pages", header: NEVER_CACHE },
];

const CADDY = `# In front of Berth, behind the CDN: the visitor's address comes from the CDN's header.
# Accept traffic only from the CDN's address ranges, or anyone could set that header.
sites.example.net, *.sites.example.net {
  reverse_proxy 127.0.0.1:8080 {
    header_up X-Forwarded-For {http.request.header.CF-Connecting-IP}
  }
}`;

export function CdnSection() {
  return (
    <DocSection id="cdn" title="Putting a CDN in front" lead="Serve sites from a CDN's edge around the world, with Berth as the origin.">
      <p>
        Berth serves every site from the machine it runs on. To bring pages closer to visitors far away, put any CDN (Cloudflare, Fastly, Bunny,
        CloudFront…) in front of the sites' domain. Berth sends the headers a CDN needs to cache correctly:
      </p>
      <dl className="divide-y rounded-xl border text-sm">
        {ROWS.map((row) => (
          <div key={row.header} className="grid gap-1 px-4 py-3 sm:grid-cols-[1fr_16rem] sm:gap-4">
            <dt className="text-foreground/85">{row.what}</dt>
            <dd className="font-mono text-[0.8125rem] break-words text-foreground">{row.header}</dd>
          </div>
        ))}
      </dl>
      <p>
        Every file also carries an <InlineCode>ETag</InlineCode> and a <InlineCode>Last-Modified</InlineCode> date, so the CDN&apos;s check before
        reusing a live file is a <InlineCode>304 Not Modified</InlineCode> with no body. Compressed copies (Brotli, gzip) are chosen by{" "}
        <InlineCode>Accept-Encoding</InlineCode>, and the answer says <InlineCode>Vary: Accept-Encoding</InlineCode>.
      </p>

      <DocHeading>Setting it up</DocHeading>
      <ol className="list-decimal space-y-2 pl-5">
        <li>
          Point the sites&apos; domain and its wildcard (<InlineCode>*.sites.example.net</InlineCode>) at the CDN, and the CDN&apos;s origin at Berth
          (or the reverse proxy in front of it).
        </li>
        <li>
          Have the CDN send the visitor&apos;s <InlineCode>Host</InlineCode> header to the origin unchanged: Berth decides which site to serve by it.
        </li>
        <li>
          Keep the CDN&apos;s default of following the origin&apos;s <InlineCode>Cache-Control</InlineCode>. Leave the dashboard&apos;s own domain out
          of the CDN, or bypass its cache there: it is an application, not a site.
        </li>
        <li>
          Set <InlineCode>BERTH_TRUST_PROXY=true</InlineCode> and have the proxy in front of Berth pass on the visitor&apos;s address, so rate limits
          and visitor counts see visitors rather than the CDN&apos;s servers. Berth reads the address the proxy appended last to{" "}
          <InlineCode>X-Forwarded-For</InlineCode>; with Caddy between the CDN and Berth:
        </li>
      </ol>
      <CodeBlock code={CADDY} label="Caddyfile" />

      <DocHeading>Caching HTML at the edge too</DocHeading>
      <p>
        With the headers above, the CDN keeps every file but asks Berth before reusing a live one, so a deploy is seen at once. To answer from the CDN
        without asking, give HTML an edge lifetime in the CDN&apos;s own rules (an hour, a day) and purge it when you deploy: a{" "}
        <InlineCode>deploy.succeeded</InlineCode> webhook arrives just after the new version went live. The{" "}
        <Link to="/docs#webhooks" className={linkClass}>
          Webhooks
        </Link>{" "}
        section has a receiver that purges a CDN.
      </p>
      <Callout title="Custom domains">
        A custom domain goes through the CDN only once the CDN accepts that host name too. Add the domain in Berth first and let it reach Active while
        it points straight at Berth, so its DNS check and certificate complete; then move it behind the CDN.
      </Callout>
    </DocSection>
  );
}
