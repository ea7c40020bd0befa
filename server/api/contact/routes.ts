import type { FastifyInstance } from "fastify";
import { ContactRequest } from "../../../common/contact";
import { CONTACT_LIMIT } from "../../../common/limits";
import type { AppContext } from "../../context";
import { consumeRateLimit } from "../../db/repositories/rateLimits";
import { AppError } from "../../errors";
import { sendContactMessage } from "../../services/sendContactMessage";
import { parseBody } from "../validate";

export async function contactRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post("/api/contact", async (request) => {
    const body = parseBody(ContactRequest, request.body);
    const limit = await consumeRateLimit(ctx.db, `berth:contact:${request.ip}`, CONTACT_LIMIT);
    if (!limit.allowed) {
      throw new AppError(
        "rate_limited",
        429,
        `Too many messages. Please try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`,
      );
    }
    await sendContactMessage(ctx, body);
    return { ok: true as const };
  });
}
