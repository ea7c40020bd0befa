// The route table (common/routes.ts lists the same paths for the server).
import { Route, Routes } from "react-router";
import { Landing } from "./routes/Landing";
import { Contact } from "./routes/Contact";
import { Docs } from "./routes/Docs";
import { Legal } from "./routes/Legal";
import { NotFound } from "./routes/NotFound";
import { Login } from "./routes/auth/Login";
import { Signup } from "./routes/auth/Signup";
import { ForgotPassword } from "./routes/auth/ForgotPassword";
import { UpdatePassword } from "./routes/auth/UpdatePassword";
import { DashboardLayout } from "./routes/dashboard/DashboardLayout";
import { Overview } from "./routes/dashboard/Overview";
import { RequireAuth } from "./components/layout/RequireAuth";

export function App() {
  return (
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
      <Route
        path="/dashboard"
        element={
          <RequireAuth>
            <DashboardLayout />
          </RequireAuth>
        }
      >
        <Route index element={<Overview />} />
      </Route>
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
