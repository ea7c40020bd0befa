import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { ArrowLeft, Home, LayoutDashboard, LogIn } from "lucide-react";
import { NOT_FOUND_TEXT, PRODUCT_NAME } from "../../common/texts";
import { isDashboardPath } from "../../common/routes";
import { BerthLogo } from "../components/ui/BerthLogo";
import { Button } from "../components/ui/Button";
import { loginPathFor } from "../lib/redirect";
import { useSession } from "../lib/session";

export type NotFoundAction = "backToDashboard" | "goToDashboard" | "goHome" | "signIn";

/**
 * The buttons of the not-found page, in display order. While the session is still loading only
 * 'Go to Home' is offered, so a signed-in user never sees 'Sign In' flash up (nor the reverse).
 */
export function notFoundActions(input: { pathname: string; loading: boolean; signedIn: boolean }): NotFoundAction[] {
  if (input.loading) return ["goHome"];
  if (input.signedIn) return [isDashboardPath(input.pathname) ? "backToDashboard" : "goToDashboard", "goHome"];
  return ["signIn", "goHome"];
}

export function NotFound() {
  const location = useLocation();
  const { loading, user } = useSession();
  const dashboard = isDashboardPath(location.pathname);
  const actions = notFoundActions({
    pathname: location.pathname,
    loading,
    signedIn: user !== null,
  });

  useEffect(() => {
    document.title = `${NOT_FOUND_TEXT.title} · ${PRODUCT_NAME}`;
  }, []);

  const links: Record<NotFoundAction, { to: string; label: string; Icon: typeof Home }> = {
    backToDashboard: {
      to: "/dashboard",
      label: NOT_FOUND_TEXT.backToDashboard,
      Icon: ArrowLeft,
    },
    goToDashboard: {
      to: "/dashboard",
      label: NOT_FOUND_TEXT.goToDashboard,
      Icon: LayoutDashboard,
    },
    // A signed-out visitor to a dashboard page probably needs to sign in to see it: come back here after.
    signIn: {
      to: dashboard ? loginPathFor(location.pathname + location.search) : "/auth/login",
      label: NOT_FOUND_TEXT.signIn,
      Icon: LogIn,
    },
    goHome: { to: "/", label: NOT_FOUND_TEXT.goHome, Icon: Home },
  };

  return (
    <div className="relative flex min-h-dvh flex-col overflow-hidden bg-background">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_60%_45%_at_50%_0%,oklch(0.51_0.23_277/0.12),transparent)]"
      />
      <header className="relative px-5 py-6 sm:px-10">
        <BerthLogo />
      </header>
      <main className="relative flex flex-1 items-center justify-center px-5 pb-24 pt-8">
        <div className="flex w-full max-w-md flex-col items-center text-center">
          <p className="bg-gradient-to-b from-primary to-primary/40 bg-clip-text text-7xl font-bold tracking-tighter text-transparent sm:text-8xl">
            {NOT_FOUND_TEXT.code}
          </p>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight sm:text-3xl">{NOT_FOUND_TEXT.title}</h1>
          <p className="mt-3 text-sm leading-relaxed text-muted-foreground sm:text-base">
            {dashboard ? NOT_FOUND_TEXT.dashboardBody : NOT_FOUND_TEXT.body}
          </p>
          <p className="mt-4 max-w-full truncate rounded-md border bg-muted px-2.5 py-1 font-mono text-xs text-muted-foreground">
            {location.pathname}
          </p>
          <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row sm:justify-center" data-testid="not-found-actions">
            {actions.map((action, index) => {
              const { to, label, Icon } = links[action];
              const primary = index === 0 && action !== "goHome";
              return (
                <Button key={action} asChild size="lg" variant={primary ? "default" : "outline"} className="w-full sm:w-auto">
                  <Link to={to}>
                    <Icon aria-hidden />
                    {label}
                  </Link>
                </Button>
              );
            })}
          </div>
        </div>
      </main>
    </div>
  );
}
