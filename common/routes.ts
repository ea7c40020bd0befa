// The dashboard's route table, shared so that the server answers 404 for paths no screen handles
// (the page still renders the not-found screen). web/App.tsx keys its screens by this list, so
// the two cannot drift apart.
export const APP_ROUTES = [
  "/",
  "/contact",
  "/docs",
  "/docs/api",
  "/terms",
  "/privacy",
  "/auth/login",
  "/auth/signup",
  "/auth/forgot-password",
  "/auth/update-password",
  "/auth/two-factor",
  "/dashboard",
  "/dashboard/sites",
  "/dashboard/sites/new",
  "/dashboard/sites/:siteId",
  "/dashboard/domains",
  "/dashboard/integrations",
  "/dashboard/cli",
  "/dashboard/settings",
  "/dashboard/help",
  "/dashboard/admin",
] as const;

export type AppRoute = (typeof APP_ROUTES)[number];

function matches(pattern: string, path: string): boolean {
  const p = pattern.split("/");
  const q = path.split("/");
  return p.length === q.length && p.every((seg, i) => (seg.startsWith(":") ? q[i] !== "" : seg === q[i]));
}

export function isAppRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return APP_ROUTES.some((route) => matches(route, path));
}

export function isDashboardPath(pathname: string): boolean {
  return pathname === "/dashboard" || pathname.startsWith("/dashboard/");
}
