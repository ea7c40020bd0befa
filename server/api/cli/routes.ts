// The `berth` CLI's sign-in from the browser (common/deviceLogin.ts) and GET /api/whoami. Starting
// and polling are public (the device code is the poller's credential); seeing, approving and
// denying a request take a browser session, never a token, so a token cannot mint another.
import type { FastifyInstance, FastifyReply } from "fastify";
import { PollDeviceLoginRequest, StartDeviceLoginRequest, type DeviceLoginApproved, type WhoAmIResponse } from "../../../common/deviceLogin";
import type { AppContext } from "../../context";
import { getSiteSummaryForUser } from "../../db/repositories/sites";
import {
  answerDeviceLoginForUser,
  getDeviceLoginForUser,
  pollDeviceLogin,
  RetryLaterError,
  startDeviceLogin,
} from "../../services/manageDeviceLogins";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { presentDeviceLogin } from "./present";

type CodeParams = { Params: { userCode: string } };

/** Sends a RetryLaterError's wait as Retry-After, then lets the error handler answer. */
function withRetryAfter(reply: FastifyReply) {
  return (error: unknown): never => {
    if (error instanceof RetryLaterError) void reply.header("retry-after", String(error.retryAfterSeconds));
    throw error;
  };
}

export async function cliRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.post("/api/cli/login", async (request, reply) => {
    const { client_name } = parseBody(StartDeviceLoginRequest, request.body);
    const started = await startDeviceLogin(ctx, client_name, request.ip).catch(withRetryAfter(reply));
    return reply.status(201).header("cache-control", "no-store").send(started);
  });

  app.post("/api/cli/login/poll", async (request, reply) => {
    const { device_code } = parseBody(PollDeviceLoginRequest, request.body);
    const approved: DeviceLoginApproved = await pollDeviceLogin(ctx, device_code).catch(withRetryAfter(reply));
    return reply.header("cache-control", "no-store").send(approved);
  });

  app.get<CodeParams>("/api/cli/login/:userCode", { preHandler: guard.signedIn }, async (request, reply) => {
    const login = await getDeviceLoginForUser(ctx, request.user.id, request.params.userCode).catch(withRetryAfter(reply));
    return presentDeviceLogin(login);
  });

  for (const [action, answer] of [
    ["approve", "approved"],
    ["deny", "denied"],
  ] as const) {
    app.post<CodeParams>(`/api/cli/login/:userCode/${action}`, { preHandler: guard.signedIn }, async (request, reply) => {
      const login = await answerDeviceLoginForUser(ctx, request.user.id, request.params.userCode, answer).catch(withRetryAfter(reply));
      return presentDeviceLogin(login);
    });
  }

  app.get("/api/whoami", { preHandler: guard.signedIn, config: { token: "read", aboutCaller: true } }, async (request): Promise<WhoAmIResponse> => {
    const { user, apiToken } = request;
    const site = apiToken?.site_id ? await getSiteSummaryForUser(ctx.db, user.id, apiToken.site_id) : undefined;
    return {
      user: { email: user.email, name: user.name },
      token: apiToken && {
        name: apiToken.name,
        permission: apiToken.permission,
        site: apiToken.site_id ? { id: apiToken.site_id, subdomain: site?.subdomain ?? null } : null,
        expires_at: apiToken.expires_at?.toISOString() ?? null,
      },
    };
  });
}
