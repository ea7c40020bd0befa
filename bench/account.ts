// A signed-in user for a bench: signs up, confirms through the outbox link and signs in with the
// session cookie, as a person would.
import type { OutgoingHttpHeaders } from "node:http";
import type { Berth } from "../e2e/support/berth";
import { waitFor } from "../e2e/support/pages";

export interface BenchUser {
  email: string;
  cookie: string;
  /** What every API call through `berth` sends: the dashboard's Host and Origin, and the cookie. */
  headers: OutgoingHttpHeaders;
}

export async function signUpAndIn(berth: Berth, label: string): Promise<BenchUser> {
  const user = { email: `bench-${label}-${Date.now()}@example.com`, password: "bench password 1", name: "Bench" };
  const post = (p: string, body: unknown) =>
    fetch(`http://127.0.0.1:${berth.port}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: berth.url },
      body: JSON.stringify(body),
    });
  const signUp = await post("/api/auth/sign-up/email", user);
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const link = await waitFor(() => berth.outbox.lastLink(user.email, /Confirm your e-mail/));
  await fetch(link, { redirect: "manual" });
  const signedIn = await post("/api/auth/sign-in/email", { email: user.email, password: user.password });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("berth.session_token="))
    ?.split(";")[0];
  if (!signedIn.ok || !cookie) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  return { email: user.email, cookie, headers: { host: `localhost:${berth.port}`, origin: berth.url, cookie } };
}
