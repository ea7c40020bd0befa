// The docs page's Webhooks section: events, payload, headers, checking the signature, retries,
// the private-address rule, and purging a CDN after a deploy. The numbers come from common/.
import { Link } from "react-router";
import { DEFAULT_CAPS } from "../../../../common/limits";
import {
  WEBHOOK_EVENT_TEXT,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_WINDOW_MS,
  WEBHOOK_TIMEOUT_MS,
} from "../../../../common/webhooks";
import { Callout, CodeBlock, DocHeading, DocSection, InlineCode } from "./DocBits";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** 30000 → "30 s", 120000 → "2 min", 3600000 → "1 h". */
function duration(ms: number): string {
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${ms / 60_000} min`;
  return `${ms / 3_600_000} h`;
}

/** "30 s, 2 min, …, 2 h, then every 4 h". */
const SCHEDULE = `${WEBHOOK_RETRY_DELAYS_MS.slice(0, -1).map(duration).join(", ")}, then every ${duration(WEBHOOK_RETRY_DELAYS_MS.at(-1)!)}`;

const PAYLOAD = `{
  "id": "7c1f4f0e-3b7a-4d4e-9a55-2f0d8c7e6b21",
  "type": "deploy.succeeded",
  "created_at": "2026-05-04T09:30:12.482Z",
  "site": {
    "id": "5b0e…",
    "name": "Portfolio",
    "subdomain": "qzmxa",
    "url": "https://qzmxa.example-sites.net/"
  },
  "deployment": {
    "id": "e2a9…",
    "version": 12,
    "url": "https://qzmxa--v12.example-sites.net/",
    "status": "success",
    "error": null
  }
}`;

const VERIFY = `import { createHmac, timingSafeEqual } from "node:crypto";

// The secret shown once when the webhook was added (whsec_…).
const secret = process.env.BERTH_WEBHOOK_SECRET;

/** Whether the raw body was signed by Berth, less than 5 minutes ago. */
export function isFromBerth(signatureHeader, rawBody) {
  const fields = Object.fromEntries(signatureHeader.split(",").map((part) => part.split("=")));
  const age = Math.abs(Date.now() / 1000 - Number(fields.t));
  const expected = createHmac("sha256", secret).update(\`\${fields.t}.\${rawBody}\`).digest();
  const given = Buffer.from(fields.v1 ?? "", "hex");
  return age < 300 && given.length === expected.length && timingSafeEqual(given, expected);
}`;

const PURGE = `import http from "node:http";
import { isFromBerth } from "./verify.js";

const seen = new Set(); // Berth-Delivery ids already handled

http
  .createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", async () => {
      if (!isFromBerth(request.headers["berth-signature"] ?? "", body)) return response.writeHead(401).end();
      const id = request.headers["berth-delivery"];
      const event = JSON.parse(body);
      if (event.type === "deploy.succeeded" && !seen.has(id)) {
        seen.add(id);
        // The new version is already live: purge, and the CDN fetches it on the next request.
        await fetch(\`https://api.cloudflare.com/client/v4/zones/\${process.env.ZONE_ID}/purge_cache\`, {
          method: "POST",
          headers: { authorization: \`Bearer \${process.env.CF_API_TOKEN}\`, "content-type": "application/json" },
          body: JSON.stringify({ purge_everything: true }),
        });
      }
      response.writeHead(204).end();
    });
  })
  .listen(3000);`;

export function WebhooksSection() {
  return (
    <DocSection id="webhooks" title="Webhooks" lead="Hear of deploys, rollbacks and deletions at your own URL.">
      <p>
        Add a webhook under{" "}
        <Link to="/dashboard/integrations" className={linkClass}>
          Integrations
        </Link>
        , or in a site's Settings tab. It covers all your sites or one, and the events you tick. Berth then sends it a <InlineCode>POST</InlineCode>{" "}
        request with a JSON body each time one of them happens. An account can have {DEFAULT_CAPS.webhooksPerAccount} webhooks. They can also be
        managed with the API (<InlineCode>/api/webhooks</InlineCode>): a <strong>full access</strong> token adds and changes them, a{" "}
        <strong>read only</strong> one lists them and their deliveries, and a token for one site sees only that site's.
      </p>

      <DocHeading>Events</DocHeading>
      <ul className="list-disc space-y-1.5 pl-6 marker:text-muted-foreground">
        {WEBHOOK_EVENTS.map((event) => (
          <li key={event}>
            <InlineCode>{event}</InlineCode>: {WEBHOOK_EVENT_TEXT[event].description}
          </li>
        ))}
        <li>
          <InlineCode>ping</InlineCode>: sent by <strong>Send test</strong>, to check that your receiver answers.
        </li>
      </ul>

      <DocHeading>Payload</DocHeading>
      <p>
        Every event names the site; deploy events also carry the deployment, whose <InlineCode>url</InlineCode> serves that version for good (null
        when it failed, with the reason in <InlineCode>error</InlineCode>). <InlineCode>site.deleted</InlineCode> has no deployment.
      </p>
      <CodeBlock code={PAYLOAD} label="deploy.succeeded" />

      <DocHeading>Headers</DocHeading>
      <ul className="list-disc space-y-1.5 pl-6 marker:text-muted-foreground">
        <li>
          <InlineCode>Content-Type: application/json</InlineCode> and <InlineCode>User-Agent: {WEBHOOK_HEADERS.userAgent}</InlineCode>
        </li>
        <li>
          <InlineCode>{WEBHOOK_HEADERS.event}</InlineCode>: the event's type, as in the body.
        </li>
        <li>
          <InlineCode>{WEBHOOK_HEADERS.delivery}</InlineCode>: the event's id, the same as the body's <InlineCode>id</InlineCode>, and the same on
          every retry and redelivery. Keep the ids you have handled and drop a repeat.
        </li>
        <li>
          <InlineCode>{WEBHOOK_HEADERS.signature}: t=1777887012,v1=5f2b…</InlineCode>: when it was signed (Unix seconds) and the hex HMAC-SHA256 of{" "}
          <InlineCode>{"<t>.<body>"}</InlineCode>, keyed with the webhook's signing secret.
        </li>
      </ul>

      <DocHeading>Checking the signature</DocHeading>
      <p>
        Compute the HMAC over the raw body as it arrived (not over JSON you parsed and wrote again), compare in constant time, and refuse an old
        timestamp, so that a request someone recorded cannot be replayed later. In Node:
      </p>
      <CodeBlock code={VERIFY} label="verify.js" />

      <DocHeading>Retries</DocHeading>
      <p>
        An answer with a 2xx status within {WEBHOOK_TIMEOUT_MS / 1000} seconds counts as delivered; redirects are not followed. Anything else is tried
        again after {SCHEDULE}, for up to {WEBHOOK_RETRY_WINDOW_MS / 3_600_000} hours after the event; then the delivery is marked failed. Deliveries
        are stored with the change they report, so a restart of Berth loses none. Each is sent at least once: if Berth stops between your answer and
        recording it, it is sent again, with the same <InlineCode>{WEBHOOK_HEADERS.delivery}</InlineCode>. The dashboard lists each webhook's last
        deliveries with the status code and response time, and <strong>Redeliver</strong> sends one again.
      </p>

      <DocHeading>Only public addresses</DocHeading>
      <p>
        Berth sends webhooks only to public addresses. A URL whose host is, or resolves to, a loopback, private, link-local, carrier-grade NAT,
        unique-local, multicast or other reserved address (<InlineCode>127.0.0.1</InlineCode>, <InlineCode>10.0.0.0/8</InlineCode>,{" "}
        <InlineCode>192.168.0.0/16</InlineCode>, <InlineCode>169.254.169.254</InlineCode>, <InlineCode>fc00::/7</InlineCode>,{" "}
        <InlineCode>::ffff:127.0.0.1</InlineCode>…) is refused when you add it, and checked again before every request, which goes to the address that
        was checked. Otherwise anyone could make the server call into its own network. Operators who run Berth for trusted users only, or for
        development, can set <InlineCode>BERTH_WEBHOOK_ALLOW_PRIVATE=true</InlineCode>.
      </p>

      <DocHeading>Example: purge a CDN after each deploy</DocHeading>
      <p>
        With a CDN in front of your site, a deploy is not seen until the cached copies expire. Point a <InlineCode>deploy.succeeded</InlineCode>{" "}
        webhook at a small receiver that purges the cache: Berth sends the event after the new version is live, so the CDN fetches the new files on
        the next request. This one runs with Node and uses Cloudflare's purge API; other CDNs have their own.
      </p>
      <CodeBlock code={PURGE} label="purge.js" />
      <Callout title="Answer fast">
        Berth waits {WEBHOOK_TIMEOUT_MS / 1000} seconds for an answer. A receiver with slow work to do can answer at once and do it afterwards.
      </Callout>
    </DocSection>
  );
}
