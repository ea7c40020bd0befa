// The screens, one for each path of common/routes.ts: the tables below are keyed by that list, so
// a path the server knows without a screen here (or a screen the server would answer 404 for) is
// a type error. Screens are loaded on demand, so a visitor of the landing page does not download
// the dashboard.
import { lazy, Suspense, type ComponentType, type ReactElement } from "react";
import { Route, Routes } from "react-router";
import type { AppRoute } from "../common/routes";
import { RequireAuth } from "./components/layout/RequireAuth";
import { Spinner } from "./components/ui/Spinner";

function screen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

const Landing = screen(() => import("./routes/Landing").then((m) => m.Landing));
const Contact = screen(() => import("./routes/Contact").then((m) => m.Contact));
const Docs = screen(() => import("./routes/Docs").then((m) => m.Docs));
const ApiReference = screen(() => import("./routes/ApiReference").then((m) => m.ApiReference));
const Legal = screen(() => import("./routes/Legal").then((m) => m.Legal));
const NotFound = screen(() => import("./routes/NotFound").then((m) => m.NotFound));
const Login = screen(() => import("./routes/auth/Login").then((m) => m.Login));
const Signup = screen(() => import("./routes/auth/Signup").then((m) => m.Signup));
const ForgotPassword = screen(() => import("./routes/auth/ForgotPassword").then((m) => m.ForgotPassword));
const UpdatePassword = screen(() => import("./routes/auth/UpdatePassword").then((m) => m.UpdatePassword));
const DashboardLayout = screen(() => import("./routes/dashboard/DashboardLayout").then((m) => m.DashboardLayout));
const Overview = screen(() => import("./routes/dashboard/Overview").then((m) => m.Overview));

const Sites = screen(() => import("./routes/dashboard/Sites").then((m) => m.Sites));
const NewSite = screen(() => import("./routes/dashboard/NewSite").then((m) => m.NewSite));
const SiteDetail = screen(() => import("./routes/dashboard/SiteDetail").then((m) => m.SiteDetail));
const Domains = screen(() => import("./routes/dashboard/Domains").then((m) => m.Domains));
const Integrations = screen(() => import("./routes/dashboard/Integrations").then((m) => m.Integrations));
const CliLogin = screen(() => import("./routes/dashboard/CliLogin").then((m) => m.CliLogin));
const Settings = screen(() => import("./routes/dashboard/Settings").then((m) => m.Settings));
const Help = screen(() => import("./routes/dashboard/Help").then((m) => m.Help));
const Admin = screen(() => import("./routes/dashboard/Admin").then((m) => m.Admin));
const TwoFactor = screen(() => import("./routes/auth/TwoFactor").then((m) => m.TwoFactor));

function Loading() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner className="size-8" />
    </div>
  );
}

type DashboardRoute = Extract<AppRoute, "/dashboard" | `/dashboard/${string}`>;

const PUBLIC_SCREENS: Record<Exclude<AppRoute, DashboardRoute>, ReactElement> = {
  "/": <Landing />,
  "/contact": <Contact />,
  "/docs": <Docs />,
  "/docs/api": <ApiReference />,
  "/terms": <Legal document="terms" />,
  "/privacy": <Legal document="privacy" />,
  "/auth/login": <Login />,
  "/auth/signup": <Signup />,
  "/auth/forgot-password": <ForgotPassword />,
  "/auth/update-password": <UpdatePassword />,
  "/auth/two-factor": <TwoFactor />,
};

/** Inside the dashboard's layout, behind sign-in. */
const DASHBOARD_SCREENS: Record<DashboardRoute, ReactElement> = {
  "/dashboard": <Overview />,
  "/dashboard/sites": <Sites />,
  "/dashboard/sites/new": <NewSite />,
  "/dashboard/sites/:siteId": <SiteDetail />,
  "/dashboard/domains": <Domains />,
  "/dashboard/integrations": <Integrations />,
  "/dashboard/cli": <CliLogin />,
  "/dashboard/settings": <Settings />,
  "/dashboard/help": <Help />,
  "/dashboard/admin": <Admin />,
};

const entries = <K extends string>(screens: Record<K, ReactElement>) => Object.entries(screens) as [K, ReactElement][];

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        {entries(PUBLIC_SCREENS).map(([path, element]) => (
          <Route key={path} path={path} element={element} />
        ))}
        <Route
          path="/dashboard"
          element={
            <RequireAuth>
              <DashboardLayout />
            </RequireAuth>
          }
        >
          {entries(DASHBOARD_SCREENS).map(([path, element]) =>
            path === "/dashboard" ? <Route key={path} index element={element} /> : <Route key={path} path={path} element={element} />,
          )}
        </Route>
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
