// Rows → the shapes of common/apiTokens.ts. The hash never leaves the server.
import type { ApiTokenResponse } from "../../../common/apiTokens";
import type { ApiTokenWithSite } from "../../db/repositories/apiTokens";

export function presentApiToken(token: ApiTokenWithSite): ApiTokenResponse {
  return {
    id: token.id,
    name: token.name,
    permission: token.permission,
    site: token.site,
    prefix: token.prefix,
    created_at: token.created_at.toISOString(),
    expires_at: token.expires_at?.toISOString() ?? null,
    last_used_at: token.last_used_at?.toISOString() ?? null,
    last_used_ip: token.last_used_ip,
  };
}
