import { CodeBlock, Callout, DocHeading, DocSection, InlineCode } from "./DocBits";
import { SETTING_GROUPS, SETTINGS } from "../../../../common/settings";
import { Operations } from "./Operations";

/** A setting's text with its `code` spans set as code; `sentence` capitalises a plain first letter. */
function SettingText({ text, sentence = false }: { text: string; sentence?: boolean }) {
  const shown = sentence && !text.startsWith("`") ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return shown.split("`").map((part, i) => (i % 2 === 1 ? <InlineCode key={i}>{part}</InlineCode> : part));
}

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
        you configure SMTP, e-mails such as sign-up confirmations are written to that outbox instead of being sent, so you can open them there. Berth
        writes a backup of it every day into its <InlineCode>backups</InlineCode> folder and keeps seven; copy that folder to another machine, since a
        backup on the same disk does not survive losing the disk. It is readable by the account Berth runs as and no other: Berth creates it that way,
        and at start takes group and other permissions off anything in it that has them.
      </p>

      <DocHeading>Using PostgreSQL</DocHeading>
      <p>When one machine is not enough, point Berth at a PostgreSQL server. Migrations run on start.</p>
      <CodeBlock code={"DATABASE_URL=postgres://berth:secret@db.internal:5432/berth npm start"} />

      <DocHeading>Configuration</DocHeading>
      <p>
        Berth is configured with environment variables. All of them are checked at startup; if any is missing or wrong, Berth lists every problem at
        once and exits.
      </p>
      {SETTING_GROUPS.map((group) => (
        <div key={group} className="space-y-2">
          <h4 className="pt-2 text-sm font-semibold text-foreground">{group}</h4>
          <dl className="divide-y rounded-xl border text-sm">
            {SETTINGS.filter((setting) => setting.group === group).map(({ names, description, default: byDefault }) => (
              <div key={names.join()} className="grid gap-1 px-4 py-3 sm:grid-cols-[16rem_1fr] sm:gap-4">
                <dt className="font-mono text-[0.8125rem] font-medium break-words text-foreground">{names.join(", ")}</dt>
                <dd className="text-foreground/75">
                  <span className="block">
                    <SettingText text={description} sentence />.
                  </span>
                  <span className="mt-1 block text-muted-foreground">
                    Default: <SettingText text={byDefault} />.
                  </span>
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ))}

      <Operations />

      <Callout title="Going to production">
        Serve sites from a different registrable domain than the dashboard, the way GitHub Pages uses github.io rather than github.com, so that
        uploaded pages can never set cookies the dashboard receives: the dashboard at <InlineCode>berth.example.com</InlineCode> and the sites at{" "}
        <InlineCode>*.example-sites.net</InlineCode>, not <InlineCode>*.sites.example.com</InlineCode>. Berth refuses to start when the two share one.
        Point a wildcard DNS record (<InlineCode>*.example-sites.net</InlineCode>) at the server and set <InlineCode>BERTH_SITES_DOMAIN</InlineCode>.
      </Callout>
    </DocSection>
  );
}
