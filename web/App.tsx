// The route table (common/routes.ts lists the same paths for the server). Screens are loaded on
// demand, so a visitor of the landing page does not download the dashboard.
import { lazy, Suspense, type ComponentType } from "react";
import { Route, Routes } from "react-router";
import { RequireAuth } from "./components/layout/RequireAuth";
import { Spinner } from "./components/ui/Spinner";

function screen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

const Landing = screen(() => import("./routes/Landing").then((m) => m.Landing));
const Contact = screen(() => import("./routes/Contact").then((m) => m.Contact));
const Docs = screen(() => import("./routes/Docs").then((m) => m.Docs));
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
const Settings = screen(() => import("./routes/dashboard/Settings").then((m) => m.Settings));
const Admin = screen(() => import("./routes/dashboard/Admin").then((m) => m.Admin));
const TwoFactor = screen(() => import("./routes/auth/TwoFactor").then((m) => m.TwoFactor));

function Loading() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner className="size-8" />
    </div>
  );
}

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route path="/contact" element={<Contact />} />
        <Route path="/docs" element={<Docs />} />
        <Route path="/terms" element={<Legal document="terms" />} />
        <Route path="/privacy" element={<Legal document="privacy" />} />
        <Route path="/auth/login" element={<Login />} />
        <Route path="/auth/signup" element={<Signup />} />
        <Route path="/auth/forgot-password" element={<ForgotPassword />} />
        <Route path="/auth/update-password" element={<UpdatePassword />} />
        <Route path="/auth/two-factor" element={<TwoFactor />} />
        <Route
          path="/dashboard"
          element={
            <RequireAuth>
              <DashboardLayout />
            </RequireAuth>
          }
        >
          <Route index element={<Overview />} />
          <Route path="sites" element={<Sites />} />
          <Route path="sites/new" element={<NewSite />} />
          <Route path="sites/:siteId" element={<SiteDetail />} />
          <Route path="domains" element={<Domains />} />
          <Route path="settings" element={<Settings />} />
          <Route path="admin" element={<Admin />} />
        </Route>
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
