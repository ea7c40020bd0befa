// berth logout and berth whoami.
import type { WhoAmIResponse } from "../../../common/deviceLogin";
import { configFileOf, connect, settingsOf, type Context } from "../context";
import { readUserConfig, removeUserConfig, writeUserConfig } from "../config";

/**
 * Forgets the saved token. The server keeps it: tokens are revoked from a browser session only
 * (so a stolen one cannot lock its owner out of revoking it), hence the pointer to Integrations.
 */
export async function logout(ctx: Context): Promise<void> {
  const file = configFileOf(ctx);
  const config = readUserConfig(file);
  if (config.token === undefined) {
    ctx.reporter.line(`Not signed in: ${file} holds no token.`);
  } else {
    const { token: _forgotten, email: _who, ...rest } = config;
    if (rest.server === undefined) removeUserConfig(file);
    else writeUserConfig(file, rest);
    ctx.reporter.line(`Signed out${config.email ? ` ${config.email}` : ""}: the token is gone from ${file}.`);
    if (config.server) {
      ctx.reporter.line(`It still works until you revoke it under Integrations: ${config.server}/dashboard/integrations`);
    }
  }
  if (ctx.env.BERTH_TOKEN) ctx.reporter.line("BERTH_TOKEN is still set in this environment.");
}

export async function whoami(ctx: Context, options: { server?: string | undefined; json?: boolean | undefined }): Promise<void> {
  const settings = settingsOf(ctx, { server: options.server });
  const client = connect(ctx, settings);
  const who = await client.get<WhoAmIResponse>("/api/whoami");
  if (options.json) {
    ctx.stdout.write(JSON.stringify({ server: client.server, ...who }) + "\n");
    return;
  }
  const lines = [`${who.user.email} on ${client.server}`];
  if (who.token) {
    const scope = who.token.site ? `the site ${who.token.site.subdomain ?? who.token.site.id}` : "all sites";
    const expiry = who.token.expires_at ? `, expires ${who.token.expires_at.slice(0, 10)}` : "";
    lines.push(`token “${who.token.name}” (${who.token.permission}, ${scope}${expiry}) from ${settings.sources.token}`);
  }
  ctx.stdout.write(lines.join("\n") + "\n");
}
