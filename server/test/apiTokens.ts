// API tokens for tests, made through the real API by a signed-in owner, and clients that present them.
import type { ApiTokenPermission, CreatedApiTokenResponse } from "../../common/apiTokens";
import type { TestClient, TestServer } from "./support";

/** A new token of `owner`'s: its id and secret. */
export async function createToken(
  owner: TestClient,
  permission: ApiTokenPermission,
  options: { siteId?: string | null; name?: string } = {},
): Promise<{ id: string; secret: string }> {
  const response = await owner.post("/api/tokens", { name: options.name ?? `A ${permission} token`, permission, siteId: options.siteId ?? null });
  if (response.statusCode !== 201) throw new Error(`token failed: ${response.statusCode} ${response.body}`);
  const { token, secret } = response.json<CreatedApiTokenResponse>();
  return { id: token.id, secret };
}

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** A cookie-less client that sends `secret` on every request, as a script or the CLI would. */
export function tokenClient(server: TestServer, secret: string, ip?: string): TestClient {
  const client = server.client(ip === undefined ? undefined : { ip });
  const request = client.request.bind(client);
  client.request = (method, url, options = {}) => request(method, url, { ...options, headers: { ...bearer(secret), ...options.headers } });
  return client;
}
