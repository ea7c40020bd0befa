// The help page's support form and the account's request for Pro (/api/support,
// /api/upgrade-request). Session only: a token acts for scripts, not for a person asking for help.
import type { FastifyInstance } from "fastify";
import { MyUpgradeRequestResponse, SupportRequest, SupportResponse, UpgradeRequest, UpgradeRequestBody } from "../../../common/support";
import type { AppContext } from "../../context";
import { sendSupportMessage } from "../../services/sendSupportMessage";
import { myUpgradeRequest, requestUpgrade } from "../../services/upgrades/requestUpgrade";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";

export async function supportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.post(
    "/api/support",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Send the operator a support message",
          description:
            "From the signed-in account, in its name and e-mail address. Stored, then mailed to the operator (BERTH_CONTACT_EMAIL) or, without that address, announced to every admin.",
          tags: ["Service"],
          body: SupportRequest,
          response: { 200: SupportResponse },
          errors: { 429: "Too many messages from this account; try again later." },
        },
      },
    },
    async (request): Promise<SupportResponse> => {
      await sendSupportMessage(ctx, request.user, parseBody(request, SupportRequest));
      return { ok: true as const };
    },
  );

  app.get(
    "/api/upgrade-request",
    {
      preHandler: guard.signedIn,
      config: { doc: { summary: "Read your latest request for a plan upgrade", tags: ["Account"], response: { 200: MyUpgradeRequestResponse } } },
    },
    async (request): Promise<MyUpgradeRequestResponse> => myUpgradeRequest(ctx, request.user.id),
  );

  app.post(
    "/api/upgrade-request",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Ask the admins for a higher plan",
          description:
            "Only when the operator has no billing page (BERTH_UPGRADE_URL). Names a plan listed after the account's own, or leaves `plan` out for the plan 'Upgrade' offers (upgradeTo). One request is open per account at a time.",
          tags: ["Account"],
          body: UpgradeRequestBody,
          response: { 201: UpgradeRequest },
          errors: {
            400: "The plan named is not one of the server's, or is not listed above the account's plan.",
            409: "Already on upgradeTo or above it, a request is open already, or upgrades go through the operator's billing page.",
          },
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requestUpgrade(ctx, request.user, parseBody(request, UpgradeRequestBody, request.body ?? {}))),
  );
}
