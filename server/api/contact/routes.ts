import type { FastifyInstance } from "fastify";
import { ContactRequest, ContactResponse } from "../../../common/contact";
import type { AppContext } from "../../context";
import { sendContactMessage } from "../../services/sendContactMessage";
import { parseBody } from "../validate";

export async function contactRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post(
    "/api/contact",
    {
      config: {
        doc: {
          summary: "Send the operator a message",
          description: "The contact form. The message is stored first, then mailed to the operator.",
          tags: ["Service"],
          public: true,
          body: ContactRequest,
          response: { 200: ContactResponse },
          errors: { 429: "Too many messages from this address; try again later." },
        },
      },
    },
    async (request): Promise<ContactResponse> => {
      const body = parseBody(request, ContactRequest);
      await sendContactMessage(ctx, body, request.ip);
      return { ok: true as const };
    },
  );
}
