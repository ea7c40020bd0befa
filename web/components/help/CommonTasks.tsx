// The tasks people come to the help page for, each leading to where it is done or explained.
import { ArrowUpRight, Globe, History, KeyRound, Link2, Lock, Terminal, Upload, Webhook, type LucideIcon } from "lucide-react";
import { Link } from "react-router";

interface Task {
  title: string;
  body: string;
  to: string;
  action: string;
  Icon: LucideIcon;
}

const TASKS: Task[] = [
  {
    title: "Publish a site",
    body: "Drop an HTML file, a PDF, a zip or a whole folder; it is live on its own address a second later.",
    to: "/dashboard/sites/new",
    action: "New site",
    Icon: Upload,
  },
  {
    title: "Use your own domain",
    body: "Add the domain, create the DNS records shown, and Berth checks them and serves the site there.",
    to: "/dashboard/domains",
    action: "Domains",
    Icon: Link2,
  },
  {
    title: "Share privately",
    body: "Open a site's Sharing tab: a site password, a private site, or links with their own expiry and view limit.",
    to: "/dashboard/sites",
    action: "My sites",
    Icon: Lock,
  },
  {
    title: "Roll back a deploy",
    body: "Every version stays online. In a site's Deployments tab, make an earlier one live again in one click.",
    to: "/dashboard/sites",
    action: "My sites",
    Icon: History,
  },
  {
    title: "Deploy from the command line",
    body: "Install the berth command, sign in from the browser and deploy a folder, from a terminal or CI.",
    to: "/docs#cli",
    action: "CLI guide",
    Icon: Terminal,
  },
  {
    title: "Create an API token",
    body: "Tokens for scripts and CI, limited to reading, deploying or everything, for one site or all.",
    to: "/dashboard/integrations",
    action: "Integrations",
    Icon: KeyRound,
  },
  {
    title: "Get a webhook on each deploy",
    body: "Berth calls your URL, signed, when a deploy succeeds or fails, a site rolls back or is deleted.",
    to: "/docs#webhooks",
    action: "Webhooks",
    Icon: Webhook,
  },
  {
    title: "Redirects, headers and 404 pages",
    body: "_redirects and _headers files at the root of a site, a custom 404.html, single-page apps.",
    to: "/docs#redirects-and-headers",
    action: "Guide",
    Icon: Globe,
  },
];

export function CommonTasks() {
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {TASKS.map(({ title, body, to, action, Icon }) => (
        <li key={title}>
          <Link
            to={to}
            className="group flex h-full items-start gap-3 rounded-lg border p-4 transition-colors hover:border-primary/40 hover:bg-accent/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
              <Icon className="size-4" aria-hidden />
            </span>
            <span className="min-w-0 flex-1">
              <span className="flex items-center justify-between gap-2 font-medium">
                {title}
                <span className="flex shrink-0 items-center gap-0.5 text-xs font-medium text-primary opacity-80 group-hover:opacity-100">
                  {action}
                  <ArrowUpRight className="size-3.5" aria-hidden />
                </span>
              </span>
              <span className="mt-1 block text-sm text-muted-foreground">{body}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
