// A confirmed, signed-in account made through the API alone (no browser): its session cookie.
import type { Outbox } from "../../server/test/outbox";
import { waitFor } from "./pages";

export async function signUpByApi(node: { port: number; url: string; outbox: Outbox }, email: string, password: string): Promise<string> {
  const post = (p: string, body: unknown) =>
    fetch(`http://127.0.0.1:${node.port}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: node.url },
      body: JSON.stringify(body),
    });
  const signedUp = await post("/api/auth/sign-up/email", { email, password, name: "Operator" });
  if (!signedUp.ok) throw new Error(`sign-up answered ${signedUp.status}: ${await signedUp.text()}`);
  const link = await waitFor(() => node.outbox.lastLink(email, /Confirm your e-mail/));
  await fetch(link, { redirect: "manual" });
  const signedIn = await post("/api/auth/sign-in/email", { email, password });
  const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith("berth.session_token="));
  if (cookie === undefined) throw new Error(`sign-in answered ${signedIn.status} without a session cookie`);
  return cookie.split(";")[0]!;
}

/** An index.html upload as a form; fields go before the file, as the server reads them in order. */
export function pageForm(html: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", new Blob([html], { type: "text/html" }), "index.html");
  return form;
}
