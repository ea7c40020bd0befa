import { BookOpenText, CalendarDays, FileText, FolderArchive, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { Callout, DocSection, InlineCode } from "./DocBits";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

export function ApiSection() {
  return (
    <DocSection id="api" title="API reference" lead="Automating Berth from scripts and CI.">
      <Callout title="Planned, not yet available">
        An HTTP API with personal API tokens, and a <InlineCode>berth</InlineCode> command-line tool built on it, are on the roadmap. Until they ship,
        the dashboard is the way to create sites, upload files and manage deployments.
      </Callout>
      <p>When the API lands, this section will document it in full, with an OpenAPI description. It is planned to cover:</p>
      <ul className="list-disc space-y-2 pl-6 marker:text-muted-foreground">
        <li>creating API tokens in the dashboard, each one revocable;</li>
        <li>creating sites and publishing a folder or archive as a new deployment;</li>
        <li>listing deployments and rolling back to an earlier one;</li>
        <li>a CLI, so that a deploy is one line in a CI job.</li>
      </ul>
      <p>
        Want it sooner, or have a use case in mind?{" "}
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
      "Sites: drop an HTML file, a PDF, an image or a zip and it is live on its own subdomain; files and folders; every change published as a new version with its own address; one-click rollback; delete with a 14-day undo.",
      "An edge that serves sites from memory with brotli and gzip, ranges, validators, clean URLs, _redirects and _headers.",
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
    how: "Zip the output folder with index.html at the top and upload the archive.",
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
