// Test data through the real paths: users are created by better-auth itself.
import { eq } from "drizzle-orm";
import { profiles, users } from "../db/schema";
import type { TestClient, TestServer } from "./support";
import { createSiteWith, zipOf } from "./sites";
import type { ZipEntrySpec } from "./uploads/zipBuilder";

let sequence = 0;

export interface BuiltUser {
  id: string;
  email: string;
  password: string;
  name: string;
}

export async function buildUser(server: TestServer, overrides: Partial<Omit<BuiltUser, "id">> & { verified?: boolean } = {}): Promise<BuiltUser> {
  sequence += 1;
  const email = overrides.email ?? `user${sequence}.${Date.now()}@example.com`;
  const password = overrides.password ?? "correct horse battery";
  const name = overrides.name ?? `Test User${sequence}`;
  const result = await server.ctx.auth.api.signUpEmail({ body: { email, password, name } });
  if (overrides.verified !== false) {
    await server.ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, result.user.id));
  }
  return { id: result.user.id, email, password, name };
}

/** A client signed in as a new verified user. */
export async function signedInClient(
  server: TestServer,
  overrides: Parameters<typeof buildUser>[1] = {},
): Promise<{ client: TestClient; user: BuiltUser }> {
  const user = await buildUser(server, overrides);
  const client = server.client();
  const response = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return { client, user };
}

/** Puts a user on a plan directly, as an operator would (the admin API is tested on its own). */
export async function setPlan(server: TestServer, userId: string, plan: string): Promise<void> {
  await server.ctx.db.update(profiles).set({ plan }).where(eq(profiles.id, userId));
}

/** A signed-in user on `plan` with one site made from a zip of `files`. */
export async function ownerWithSite(server: TestServer, plan: "free" | "pro", files: ZipEntrySpec[]) {
  const owner = await signedInClient(server);
  if (plan === "pro") await setPlan(server, owner.user.id, plan);
  const site = await createSiteWith(owner.client, { name: "site.zip", content: await zipOf(files), type: "application/zip" });
  return { ...owner, site };
}
