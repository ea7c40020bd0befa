import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useSession } from "../../lib/session";
import { loginPathFor } from "../../lib/redirect";
import { Spinner } from "../ui/Spinner";

/** The route guard: a spinner while the session loads; signed out, to /auth/login with the return target. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { loading, user } = useSession();
  const location = useLocation();
  if (loading) {
    return (
      <div className="flex min-h-screen items-center justify-center" data-testid="auth-loading">
        <Spinner className="size-8" label="Checking your session" />
      </div>
    );
  }
  if (!user) {
    return <Navigate to={loginPathFor(location.pathname + location.search + location.hash)} replace />;
  }
  return <>{children}</>;
}
