import { ArrowRight, BookOpenText, CalendarDays, FileText, FolderArchive, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { API_TOKEN_LIMIT } from "../../../../common/limits";
import { OPENAPI_PATH } from "../../../../common/openapi";
import { CodeBlock, DocSection, InlineCode } from "./DocBits";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

export function ApiSection() {
  return (
    <DocSection id="api" title="API reference" lead="Automating Berth from scripts and CI.">
      <p>
        Create an API token in the dashboard under{" "}
        <Link to="/dashboard/integrations" className={linkClass}>
          Integrations
        </Link>
        . Each token has a name, covers all your sites or one, and has one permission: <strong>read only</strong> (sites, deployments, files, their
        history and stats), <strong>deploy</strong> (also uploads, file changes, restores from history and rollbacks, each of which publishes) or{" "}
        <strong>full access</strong> (everything you can do with sites, domains and share links, but not your account or security settings). It can
        expire, and it can be revoked at any time; a revoked token is refused on its next request. The secret starts with{" "}
        <InlineCode>berth_</InlineCode> and is shown once.
      </p>
      <p>
        Send it in the <InlineCode>Authorization</InlineCode> header of any request to the dashboard's <InlineCode>/api/</InlineCode> routes that its
        permission covers:
      </p>
      {/* This server's own address, so the example runs as it is. */}
      <CodeBlock code={`curl -H "Authorization: Bearer $BERTH_TOKEN" ${window.location.origin}/api/sites`} />
      <p>
        Tokens never work on sign-in, password, two-factor, session, account or admin routes, and a token request must not carry cookies. Each token
        may make {API_TOKEN_LIMIT.max} requests a minute.
      </p>
      <p>
        The{" "}
        <Link to="/docs/api" className={linkClass}>
          API reference
        </Link>{" "}
        lists every route: its parameters and body, its answers, and whether a token may call it and with which permission. It is built from the code
        this server runs, and the same description is available as an OpenAPI 3.1 document at <InlineCode>{OPENAPI_PATH}</InlineCode> for client
        generators and API tools.
      </p>
      <Link
        to="/docs/api"
        className="group flex items-center justify-between gap-4 rounded-xl border bg-card px-5 py-4 shadow-xs transition-colors hover:border-primary/40"
      >
        <span>
          <span className="block font-semibold text-foreground">Open the API reference</span>
          <span className="block text-sm text-muted-foreground">Every route, its parameters, answers and permissions.</span>
        </span>
        <ArrowRight aria-hidden className="size-5 shrink-0 text-primary transition-transform group-hover:translate-x-0.5" />
      </Link>
      <p>
        To publish a folder, use the <InlineCode>berth</InlineCode> command (see{" "}
        <Link to="#cli" className={linkClass}>
          Command line
        </Link>
        ): it sends only the files that changed, through the deploy API under <InlineCode>/api/sites/:id/deploys</InlineCode>.
      </p>
      <p>
        Have a use case in mind?{" "}
        <Link to="/contact" className={linkClass}>
          Tell us
        </Link>
        .
      </p>
    </DocSection>
  );
}

const RELEASES: { version: string; status: string; items: string[] }[] = [
  {
    version: "0.1",
    status: "In development",
    items: [
      "One command to run everything: npm install && npm start, with an embedded database and no other services.",
      "PostgreSQL support through DATABASE_URL, with migrations applied at startup.",
      "Accounts with e-mail confirmation and password reset; mail via SMTP or a local outbox.",
      "A contact form whose messages are stored and mailed to the operator.",
      "Terms of service and privacy policy that an operator can replace with their own Markdown.",
      "This documentation, and the public pages you are reading.",
      "Sites: drop an HTML file, a PDF, an image, a zip or a whole folder and it is live on its own subdomain; files and folders; every change published as a new version with its own address; one-click rollback; each file's and folder's history, deleted files and comparisons between versions, with any of them restored as a new version (and, on a plan with point-in-time recovery, the whole site as it was at any moment); delete with a 14-day undo.",
      "An edge that serves sites from memory with brotli and gzip, ranges, validators, clean URLs, _redirects and _headers.",
      "API tokens for scripts and CI, and an API reference generated from the routes the server runs.",
    ],
  },
];

export function Changelog() {
  return (
    <DocSection id="changelog" title="Changelog" lead="News and release notes from the Berth project.">
      {RELEASES.map((release) => (
        <article key={release.version} className="rounded-xl border p-5 sm:p-6">
          <header className="flex flex-wrap items-center gap-3">
            <h3 className="text-lg font-semibold text-foreground">Berth {release.version}</h3>
            <span className="inline-flex items-center gap-1.5 rounded-full bg-warning/15 px-2.5 py-0.5 text-xs font-medium text-foreground/80">
              <CalendarDays aria-hidden className="size-3.5" />
              {release.status}
            </span>
          </header>
          <ul className="mt-4 list-disc space-y-2 pl-6 text-foreground/85 marker:text-muted-foreground">
            {release.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </article>
      ))}
      <p className="text-sm text-muted-foreground">
        Coming next: sites, uploads and deployments in the dashboard, one-click rollbacks, private share links, custom domains and analytics.
      </p>
    </DocSection>
  );
}

const IDEAS: { icon: LucideIcon; title: string; body: string; how: string }[] = [
  {
    icon: FileText,
    title: "Share a report as a link",
    body: "Publish an annual report or a handout as a PDF and send one short address instead of an attachment.",
    how: "Create a site and upload the PDF. Update it later by uploading a new version; the link stays the same.",
  },
  {
    icon: BookOpenText,
    title: "A one-page launch site",
    body: "A single HTML file is enough for an event page, a product teaser or a wedding RSVP.",
    how: "Put styles in a <style> tag and images inline or beside it in a zip, then deploy.",
  },
  {
    icon: FolderArchive,
    title: "Publish an exported site",
    body: "Static site generators, design tools and course exports all produce a folder of HTML. Berth hosts it as is.",
    how: "Drop the output folder, the one with index.html at the top, on the new-site page (or zip it and upload the archive).",
  },
];

export function Showcase() {
  return (
    <DocSection id="showcase" title="Showcase" lead="Ideas for what to publish with Berth, and how to do each one.">
      <div className="grid gap-4 sm:grid-cols-2">
        {IDEAS.map(({ icon: Icon, title, body, how }) => (
          <article key={title} className="rounded-xl border bg-card p-5 shadow-xs">
            <span className="flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden className="size-4" />
            </span>
            <h3 className="mt-4 font-semibold text-foreground">{title}</h3>
            <p className="mt-1.5 text-sm leading-6 text-foreground/80">{body}</p>
            <p className="mt-3 border-t pt-3 text-sm leading-6 text-muted-foreground">{how}</p>
          </article>
        ))}
        <article className="flex flex-col justify-center rounded-xl border border-dashed p-5 text-sm text-muted-foreground">
          <h3 className="font-semibold text-foreground">Your project here</h3>
          <p className="mt-1.5 leading-6">
            Hosting something interesting on Berth?{" "}
            <Link to="/contact" className={linkClass}>
              Tell us about it
            </Link>{" "}
            and we may feature it.
          </p>
        </article>
      </div>
    </DocSection>
  );
}
