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

  app.post(
    "/api/cli/login",
    {
      config: {
        doc: {
          public: true,
          summary: "Start a CLI sign-in",
          description:
            "The device flow: the answer holds a secret device code for polling, and a short user code and a link for a signed-in browser to approve. Limited per client address.",
          tags: ["CLI sign-in"],
          body: StartDeviceLoginRequest,
          response: { 201: { description: "device_code, user_code, verification_url, interval and expires_in." } },
          errors: { 429: "Too many sign-ins started from this address." },
        },
      },
    },
    async (request, reply) => {
      const { client_name } = parseBody(request, StartDeviceLoginRequest);
      const started = await startDeviceLogin(ctx, client_name, request.ip).catch(withRetryAfter(reply));
      return reply.status(201).header("cache-control", "no-store").send(started);
    },
  );

  app.post(
    "/api/cli/login/poll",
    {
      config: {
        doc: {
          public: true,
          summary: "Poll a CLI sign-in",
          description:
            "428 authorization_pending until someone answers; 429 slow_down when polled sooner than the interval; 410 once expired, denied or already collected; 200 with the new API token, exactly once.",
          tags: ["CLI sign-in"],
          body: PollDeviceLoginRequest,
          response: { 200: { description: "The token (full permission, all sites) and the user's e-mail." } },
          errors: { 410: "Expired, denied or already collected.", 429: "Polled too soon: wait longer." },
        },
      },
    },
    async (request, reply) => {
      const { device_code } = parseBody(request, PollDeviceLoginRequest);
      const approved: DeviceLoginApproved = await pollDeviceLogin(ctx, device_code).catch(withRetryAfter(reply));
      return reply.header("cache-control", "no-store").send(approved);
    },
  );

  app.get<CodeParams>(
    "/api/cli/login/:userCode",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Show a CLI sign-in request",
          description: "What the approval page shows: the computer that asks and when.",
          tags: ["CLI sign-in"],
          response: { 200: { description: "The request: its code, client name, status and times." } },
          errors: { 404: "No such pending request.", 429: "Too many wrong codes." },
        },
      },
    },
    async (request, reply) => {
      const login = await getDeviceLoginForUser(ctx, request.user.id, request.params.userCode).catch(withRetryAfter(reply));
      return presentDeviceLogin(login);
    },
  );

  for (const [action, answer] of [
    ["approve", "approved"],
    ["deny", "denied"],
  ] as const) {
    app.post<CodeParams>(
      `/api/cli/login/:userCode/${action}`,
      {
        preHandler: guard.signedIn,
        config: {
          doc: {
            summary: action === "approve" ? "Approve a CLI sign-in" : "Deny a CLI sign-in",
            description: action === "approve" ? "The CLI then collects an API token for you on its next poll." : "The CLI stops with the reason.",
            tags: ["CLI sign-in"],
            response: { 200: { description: "The request as answered." } },
            errors: { 404: "No such pending request.", 429: "Too many wrong codes." },
          },
        },
      },
      async (request, reply) => {
        const login = await answerDeviceLoginForUser(ctx, request.user.id, request.params.userCode, answer).catch(withRetryAfter(reply));
        return presentDeviceLogin(login);
      },
    );
  }

  app.get(
    "/api/whoami",
    {
      preHandler: guard.signedIn,
      config: {
        token: "read",
        aboutCaller: true,
        doc: {
          summary: "Who am I",
          description: "The user a token or session acts for, and the token's name, permission, site and expiry. Any token may call it.",
          tags: ["CLI sign-in"],
          response: { 200: { description: "user (email, name) and token (null for a session)." } },
        },
      },
    },
    async (request): Promise<WhoAmIResponse> => {
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
    },
  );
}
