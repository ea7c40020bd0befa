import { CodeBlock, Callout, DocHeading, DocSection, InlineCode } from "./DocBits";

// The settings a new operator is most likely to need; server/env.ts has the full list, and the
// server prints every missing or invalid one at startup.
const SETTINGS: { name: string; what: string }[] = [
  { name: "PORT", what: "The one port for the dashboard, the API and every site. Default 8080." },
  {
    name: "BERTH_DATA_DIR",
    what: "Where the embedded database, uploaded files, mail outbox and generated secret live, readable by Berth's own account only. Default ./data.",
  },
  { name: "BERTH_APP_URL", what: "The public address of the dashboard; links in e-mails point here." },
  {
    name: "BERTH_SITES_DOMAIN",
    what: "Sites are served at {subdomain}.{this domain}, a registrable domain apart from the dashboard's (example-sites.net beside berth.example.com). Default localhost.",
  },
  {
    name: "BERTH_ALLOW_SHARED_DOMAIN",
    what: "Set to true to start even when the dashboard and the sites share a registrable domain, which lets hosted pages set the dashboard's cookies. For development only.",
  },
  { name: "DATABASE_URL", what: "A PostgreSQL connection string. Unset, Berth uses the embedded database." },
  { name: "BERTH_SMTP_URL", what: "Outgoing mail, e.g. smtp://user:pass@smtp.example.com:587." },
  { name: "BERTH_MAIL_FROM", what: "The sender of every message Berth mails." },
  { name: "BERTH_CONTACT_EMAIL", what: "Where contact-form messages go; also shown on the contact page." },
  { name: "BERTH_CONTACT_ADDRESS / _PHONE", what: "Optional address and phone for the contact page and footer." },
  { name: "BERTH_TERMS_FILE / BERTH_PRIVACY_FILE", what: "Markdown files that replace the built-in terms and privacy policy." },
  { name: "BERTH_TRUST_PROXY", what: "Set to true behind a reverse proxy so client addresses are read correctly." },
  {
    name: "BERTH_EDGE_CACHE_MB",
    what: "Memory for everything the site server keeps: small files, file lists, paths, host names, cookies and unsent visits. Visitors sending made-up requests cannot make it use more. Default 256, at least 8.",
  },
  {
    name: "BERTH_BODY_TIMEOUT_SECONDS",
    what: "Seconds a request body may make no progress before Berth answers 408 and closes the connection. Default 30.",
  },
  {
    name: "BERTH_MAX_CONNECTIONS_PER_IP",
    what: "Open connections one client address may hold; 0 for no cap. Not applied behind a trusted proxy. Default 256.",
  },
  { name: "BERTH_MAX_SITES_PER_ACCOUNT", what: "How many sites one account may have; deleted sites count until they are purged. Default 1000." },
  { name: "BERTH_MAX_DOMAINS_PER_ACCOUNT", what: "How many custom domains one account may add. Default 100." },
  { name: "BERTH_MAX_SHARE_LINKS_PER_SITE", what: "How many share links one site may have; revoked links count until deleted. Default 100." },
];

export function SelfHosting() {
  return (
    <DocSection
      id="self-hosting"
      title="Self-hosting"
      lead="Berth is open source and runs anywhere Node.js does. One command starts everything, with nothing else to install."
    >
      <p>You need Node.js 20.19 or newer. In a copy of the Berth source, run:</p>
      <CodeBlock code="npm install && npm start" />
      <p>
        The first start builds the app, creates the database and listens on <InlineCode>http://localhost:8080</InlineCode>. Sites are served on the
        same port at <InlineCode>{"{subdomain}.localhost:8080"}</InlineCode>; browsers resolve <InlineCode>*.localhost</InlineCode> without any DNS
        setup.
      </p>

      <DocHeading>Where your data lives</DocHeading>
      <p>
        Everything Berth keeps is in the data directory, <InlineCode>./data</InlineCode> unless you set <InlineCode>BERTH_DATA_DIR</InlineCode>: the
        embedded PostgreSQL database (PGlite), uploaded files, the secret that signs sessions, and an <InlineCode>outbox</InlineCode> folder. Until
        you configure SMTP, e-mails such as sign-up confirmations are written to that outbox instead of being sent, so you can open them there. Back
        up this directory and you have backed up Berth. It is readable by the account Berth runs as and no other: Berth creates it that way, and at
        start takes group and other permissions off anything in it that has them.
      </p>

      <DocHeading>Using PostgreSQL</DocHeading>
      <p>When one machine is not enough, point Berth at a PostgreSQL server. Migrations run on start.</p>
      <CodeBlock code={"DATABASE_URL=postgres://berth:secret@db.internal:5432/berth npm start"} />

      <DocHeading>Configuration</DocHeading>
      <p>
        Berth is configured with environment variables. All of them are checked at startup; if any is missing or wrong, Berth lists every problem at
        once and exits.
      </p>
      <dl className="divide-y rounded-xl border text-sm">
        {SETTINGS.map(({ name, what }) => (
          <div key={name} className="grid gap-1 px-4 py-3 sm:grid-cols-[16rem_1fr] sm:gap-4">
            <dt className="font-mono text-[0.8125rem] font-medium break-words text-foreground">{name}</dt>
            <dd className="text-foreground/75">{what}</dd>
          </div>
        ))}
      </dl>

      <Callout title="Going to production">
        Serve sites from a different registrable domain than the dashboard, the way GitHub Pages uses github.io rather than github.com, so that
        uploaded pages can never set cookies the dashboard receives: the dashboard at <InlineCode>berth.example.com</InlineCode> and the sites at{" "}
        <InlineCode>*.example-sites.net</InlineCode>, not <InlineCode>*.sites.example.com</InlineCode>. Berth refuses to start when the two share one.
        Point a wildcard DNS record (<InlineCode>*.example-sites.net</InlineCode>) at the server and set <InlineCode>BERTH_SITES_DOMAIN</InlineCode>.
      </Callout>
    </DocSection>
  );
}
