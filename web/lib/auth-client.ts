import { createAuthClient } from "better-auth/react";

/** better-auth's client, talking to /api/auth on the dashboard's own origin. */
export const authClient = createAuthClient({
  baseURL: typeof window === "undefined" ? "http://localhost" : window.location.origin,
  basePath: "/api/auth",
});
