import { createAuthClient } from "better-auth/react";
import { twoFactorClient } from "better-auth/client/plugins";

/**
 * better-auth's client, talking to /api/auth on the dashboard's own origin. The two-factor plugin
 * is given no redirect: the sign-in page reads `twoFactorRedirect` itself and moves to
 * /auth/two-factor with the return target, inside the app, without a page reload.
 */
export const authClient = createAuthClient({
  baseURL: typeof window === "undefined" ? "http://localhost" : window.location.origin,
  basePath: "/api/auth",
  plugins: [twoFactorClient()],
});
