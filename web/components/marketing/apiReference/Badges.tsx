// The small labels of the API reference: an operation's HTTP method and who may call it.
import { Globe, KeyRound, Lock, ShieldCheck } from "lucide-react";
import type { OpenApiMethod } from "../../../../common/openapi";
import { cn } from "../../../lib/cn";
import type { AuthBadge as Auth } from "./apiDocument";

const METHOD_TONE: Record<OpenApiMethod, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-primary/12 text-primary",
  put: "bg-amber-100 text-amber-800",
  patch: "bg-violet-100 text-violet-800",
  delete: "bg-destructive/12 text-destructive",
};

export function MethodBadge({ method, className }: { method: OpenApiMethod; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex h-6 w-16 shrink-0 items-center justify-center rounded-md font-mono text-[11px] font-semibold tracking-wide uppercase",
        METHOD_TONE[method],
        className,
      )}
    >
      {method}
    </span>
  );
}

const AUTH_LOOK = {
  public: { icon: Globe, label: () => "Public", tone: "border-success/30 bg-success/10 text-emerald-800" },
  session: { icon: Lock, label: () => "Session", tone: "border-border bg-muted text-foreground/80" },
  token: {
    icon: KeyRound,
    label: (auth: Auth) => `Token: ${auth.kind === "token" ? auth.permission : ""}`,
    tone: "border-primary/25 bg-primary/8 text-primary",
  },
  admin: { icon: ShieldCheck, label: () => "Admin", tone: "border-warning/40 bg-warning/15 text-amber-800" },
} as const;

/** What the badge means, for its tooltip and for screen readers. */
export function authMeaning(auth: Auth): string {
  switch (auth.kind) {
    case "public":
      return "Anyone may call this, without credentials.";
    case "session":
      return "A signed-in browser session only; API tokens are refused.";
    case "token":
      return `A signed-in session, or an API token with the ${auth.permission} permission or more.`;
    case "admin":
      return "An operator's browser session only; everyone else gets 404.";
  }
}

export function AuthBadge({ auth, className }: { auth: Auth; className?: string }) {
  const look = AUTH_LOOK[auth.kind];
  const Icon = look.icon;
  return (
    <span
      title={authMeaning(auth)}
      className={cn(
        "inline-flex h-6 shrink-0 items-center gap-1.5 rounded-full border px-2.5 text-xs font-medium whitespace-nowrap",
        look.tone,
        className,
      )}
    >
      <Icon aria-hidden className="size-3.5" />
      <span>{look.label(auth)}</span>
      <span className="sr-only">: {authMeaning(auth)}</span>
    </span>
  );
}
