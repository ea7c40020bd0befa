// What a bench does through the API as a person would: signs up, confirms through the outbox link
// and signs in with the session cookie; creates a site the way the wizard does (a reserved
// subdomain, then the site with its first upload).
import type { OutgoingHttpHeaders } from "node:http";
import type { SiteResponse } from "../common/sites";
import type { Berth } from "../e2e/support/berth";
import { waitFor } from "../e2e/support/pages";
import { multipartBody, type UploadPart } from "../server/test/sites";
import { BenchError, sendTimed } from "./support";

/** The server a user signs up on: its port, its BERTH_APP_URL and the outbox of its mail. */
export type AccountServer = Pick<Berth, "port" | "url" | "outbox">;

export interface BenchUser {
  email: string;
  cookie: string;
  /** What every API call through `server` sends: the dashboard's Host and Origin, and the cookie. */
  headers: OutgoingHttpHeaders;
}

export async function signUpAndIn(server: AccountServer, label: string): Promise<BenchUser> {
  const user = { email: `bench-${label}-${Date.now()}@example.com`, password: "bench password 1", name: "Bench" };
  const post = (p: string, body: unknown) =>
    fetch(`http://127.0.0.1:${server.port}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify(body),
    });
  const signUp = await post("/api/auth/sign-up/email", user);
  if (!signUp.ok) throw new BenchError(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const link = await waitFor(() => server.outbox.lastLink(user.email, /Confirm your e-mail/));
  await fetch(link, { redirect: "manual" });
  const signedIn = await post("/api/auth/sign-in/email", { email: user.email, password: user.password });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("berth.session_token="))
    ?.split(";")[0];
  if (!signedIn.ok || !cookie) throw new BenchError(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  return { email: user.email, cookie, headers: { host: `localhost:${server.port}`, origin: server.url, cookie } };
}

/** A multipart upload's body and its content type, ready for sendTimed. */
export function multipart(fields: Record<string, string>, file: UploadPart): { body: Buffer; headers: OutgoingHttpHeaders } {
  const { body, contentType } = multipartBody(fields, file);
  return { body, headers: { "content-type": contentType } };
}

/** A site named `name` whose first version is `file` (a page, or a zip to unpack), as the wizard makes it. */
export async function createSite(port: number, user: BenchUser, name: string, file: UploadPart): Promise<SiteResponse> {
  const reserved = await sendTimed(port, "/api/subdomains/reserve", { ...user.headers, "content-type": "application/json" }, Buffer.from("{}"));
  if (reserved.status >= 300) throw new BenchError(`reserve: ${reserved.status} ${reserved.body}`);
  const { subdomain } = JSON.parse(reserved.body) as { subdomain: string };
  const { body, headers } = multipart({ name, subdomain }, file);
  const created = await sendTimed(port, "/api/sites", { ...user.headers, ...headers }, body);
  if (created.status !== 201) throw new BenchError(`create site: ${created.status} ${created.body}`);
  return JSON.parse(created.body) as SiteResponse;
}
