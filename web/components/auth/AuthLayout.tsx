// The frame of every auth screen: the form on the left, and from 1024 px a brand panel on the
// right with a small, decorative picture of what Berth does.
import { useEffect, type ReactNode } from "react";
import { Link } from "react-router";
import { CheckCircle2, FileArchive, FileText, Globe } from "lucide-react";
import { PRODUCT_NAME } from "../../../common/texts";
import { usePublicConfig } from "../../lib/usePublicConfig";
import { BerthLogo } from "../ui/BerthLogo";

export function AuthLayout({
  title,
  subtitle,
  documentTitle,
  children,
  footer,
  icon,
}: {
  title: string;
  /** A badge above the heading, for the screens that report an outcome rather than ask for input. */
  icon?: ReactNode;
  subtitle?: ReactNode;
  /** The browser tab's title; the heading by default. */
  documentTitle?: string;
  children: ReactNode;
  /** A line under the form, such as the link to the other auth screen. */
  footer?: ReactNode;
}) {
  const tabTitle = documentTitle ?? title;
  useEffect(() => {
    document.title = `${tabTitle} · ${PRODUCT_NAME}`;
  }, [tabTitle]);

  return (
    <div className="grid min-h-dvh bg-background lg:grid-cols-[minmax(0,1fr)_minmax(0,1.05fr)]">
      <div className="flex min-w-0 flex-col px-5 py-6 sm:px-10 sm:py-8">
        <header>
          <BerthLogo />
        </header>
        <main className="flex flex-1 items-center justify-center py-10 sm:py-12">
          <div className="w-full max-w-sm">
            <div className="mb-8">
              {icon && <div className="mb-5">{icon}</div>}
              <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-[1.75rem]">{title}</h1>
              {subtitle && <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{subtitle}</p>}
            </div>
            {children}
            {footer && <p className="mt-8 text-center text-sm text-muted-foreground">{footer}</p>}
          </div>
        </main>
        <footer className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-xs text-muted-foreground sm:justify-start">
          <span>
            © {new Date().getFullYear()} {PRODUCT_NAME}
          </span>
          <Link to="/terms" className="hover:text-foreground">
            Terms
          </Link>
          <Link to="/privacy" className="hover:text-foreground">
            Privacy
          </Link>
          <Link to="/docs" className="hover:text-foreground">
            Docs
          </Link>
        </footer>
      </div>
      <BrandPanel />
    </div>
  );
}

function BrandPanel() {
  return (
    <aside className="relative hidden overflow-hidden bg-[oklch(0.24_0.09_277)] lg:flex lg:flex-col lg:justify-center lg:px-14 xl:px-20" aria-hidden>
      <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_20%_15%,oklch(0.51_0.23_277/0.55),transparent_55%),radial-gradient(circle_at_90%_90%,oklch(0.6_0.2_300/0.35),transparent_50%)]" />
      <div className="pointer-events-none absolute inset-0 bg-[linear-gradient(to_right,oklch(1_0_0/0.05)_1px,transparent_1px),linear-gradient(to_bottom,oklch(1_0_0/0.05)_1px,transparent_1px)] bg-[size:40px_40px] [mask-image:radial-gradient(ellipse_at_center,black_30%,transparent_75%)]" />
      <div className="relative mx-auto w-full max-w-md">
        <p className="text-sm font-medium text-indigo-200">Self-hosted static hosting</p>
        <h2 className="mt-3 text-balance text-3xl font-semibold leading-tight tracking-tight text-white xl:text-4xl">Drop a file. Share a link.</h2>
        <p className="mt-4 text-base leading-relaxed text-indigo-100/80">
          HTML pages, PDFs and zipped static sites go live on their own subdomain a moment after you upload them — on a server you control.
        </p>
        <DeployPreview />
        <ul className="mt-10 space-y-3 text-sm text-indigo-100/90">
          {["One-click publishing, no build step", "Your files stay on your own server", "Open source and free to run"].map((line) => (
            <li key={line} className="flex items-center gap-2.5">
              <CheckCircle2 className="size-4 text-indigo-300" />
              {line}
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
}

/** A made-up upload list: it illustrates the idea, it does not claim to be anyone's data. */
function DeployPreview() {
  const domain = usePublicConfig().data?.sitesDomain ?? "localhost";
  const rows = [
    { Icon: FileArchive, name: "portfolio.zip", host: "qwzkt", state: "Live" },
    { Icon: FileText, name: "menu-spring.pdf", host: "hbnro", state: "Live" },
    { Icon: Globe, name: "invite.html", host: "lmpav", state: "Deploying" },
  ];
  return (
    <div className="mt-10 rounded-xl border border-white/10 bg-white/[0.06] p-2 shadow-2xl shadow-black/30 backdrop-blur-sm">
      <div className="flex items-center gap-1.5 px-2 pb-2 pt-1">
        <span className="size-2.5 rounded-full bg-white/20" />
        <span className="size-2.5 rounded-full bg-white/20" />
        <span className="size-2.5 rounded-full bg-white/20" />
      </div>
      <div className="divide-y divide-white/10 rounded-lg bg-white/[0.04]">
        {rows.map(({ Icon, name, host, state }) => (
          <div key={name} className="flex items-center gap-3 px-3.5 py-3">
            <span className="flex size-8 items-center justify-center rounded-md bg-white/10 text-indigo-200">
              <Icon className="size-4" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-white">{name}</p>
              <p className="truncate font-mono text-xs text-indigo-200/70">
                {host}.{domain}
              </p>
            </div>
            <span
              className={
                state === "Live"
                  ? "rounded-full bg-emerald-400/15 px-2 py-0.5 text-xs font-medium text-emerald-300"
                  : "rounded-full bg-amber-400/15 px-2 py-0.5 text-xs font-medium text-amber-200"
              }
            >
              {state}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
