import type { FastifyInstance } from "fastify";
import { LegalDocumentResponse } from "../../../common/api";
import type { AppContext } from "../../context";
import type { RouteDoc } from "../openapi/routeDoc";

export async function legalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const doc = (summary: string): RouteDoc => ({
    summary,
    description: "Markdown: Berth's default text, or the operator's own.",
    tags: ["Service"],
    public: true,
    response: { 200: LegalDocumentResponse },
  });
  app.get("/api/legal/terms", { config: { doc: doc("Read the terms of service") } }, async (): Promise<LegalDocumentResponse> => ctx.legal.terms);
  app.get("/api/legal/privacy", { config: { doc: doc("Read the privacy policy") } }, async (): Promise<LegalDocumentResponse> => ctx.legal.privacy);
}
