import type { FastifyInstance } from "fastify";
import { ContactRequest } from "../../../common/contact";
import type { AppContext } from "../../context";
import { sendContactMessage } from "../../services/sendContactMessage";
import { parseBody } from "../validate";

export async function contactRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post("/api/contact", async (request) => {
    const body = parseBody(ContactRequest, request.body);
    await sendContactMessage(ctx, body, request.ip);
    return { ok: true as const };
  });
}
