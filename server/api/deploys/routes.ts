// The deploy API (common/deploys.ts): open a deploy with a manifest, send the files it is
// missing (one by digest, or many in a tar), publish it; or all of it in one request with a zip
// or a .tar.gz. Bodies are streams here (body.ts), read only after the guards.
import type { FastifyInstance, FastifyReply } from "fastify";
import { CreateDeployRequest, DEPLOY_MANIFEST_MAX_BYTES, DEPLOY_TEXT, DeployArchiveQuery, DeployResponse } from "../../../common/deploys";
import { ALLOWED_MIME_TYPES } from "../../../common/uploads";
import type { AppContext } from "../../context";
import type { Deploy } from "../../db/repositories/deploys";
import type { Deployment } from "../../db/repositories/deployments";
import { AppError } from "../../errors";
import { deployArchive, type ArchiveKind } from "../../services/deployArchive";
import { deployState, openDeploy, requireDeploy } from "../../services/openDeploy";
import { publishDeploy } from "../../services/publishDeploy";
import { receiveDeployFile, receiveDeployTar, receiveFilesWithPublish } from "../../services/receiveDeployFiles";
import { routeGuards } from "../routeGuards";
import type { RouteDoc } from "../openapi/routeDoc";
import { parseBody, parseQuery } from "../validate";
import { bodyStream, declaredLength, mediaType, readJson, takeBodiesAsStreams } from "./body";
import { presentDeploy } from "./present";

type SiteParams = { Params: { siteId: string } };
type DeployParams = { Params: { siteId: string; deployId: string } };
type FileParams = { Params: { siteId: string; deployId: string; sha256: string } };

const ARCHIVES: Record<string, ArchiveKind> = {
  ...Object.fromEntries(ALLOWED_MIME_TYPES.zip.map((type) => [type, "zip" as const])),
  "application/gzip": "tar.gz",
  "application/x-gzip": "tar.gz",
};

export async function deployRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  takeBodiesAsStreams(app);
  const guard = routeGuards(ctx);
  const tags: RouteDoc["tags"] = ["Deploys"];
  const answer = async (
    reply: FastifyReply,
    status: number,
    deploy: Deploy,
    subdomain: string,
    known?: { deployment?: Deployment; missing?: string[] },
  ) => {
    const { deployment, missing } = await deployState(ctx.db, deploy, known);
    return reply.status(status).send(presentDeploy(deploy, deployment, missing, { subdomain }, ctx.urls));
  };

  app.post<SiteParams>(
    "/api/sites/:siteId/deploys",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Start a deploy, or deploy an archive",
          description:
            "JSON: the manifest (path, SHA-256 and size of every file); the answer lists the digests to upload. The plan's limits are checked first; the same manifest sent again while its deploy is open answers that deploy (200). A zip or .tar.gz body instead: the folder is unpacked and published in this one request (draft and message in the query).",
          tags,
          body: CreateDeployRequest,
          query: DeployArchiveQuery,
          binary: { "application/zip": "The folder, zipped.", "application/gzip": "The folder as a .tar.gz." },
          response: { 200: DeployResponse, 201: DeployResponse },
          errors: { 413: "A file over the plan's file size, or the deploy over its storage.", 422: "A bad _redirects or _headers file." },
        },
      },
    },
    async (request, reply) => {
      const { user, site } = request;
      const type = mediaType(request);
      const archive = ARCHIVES[type];
      if (archive) {
        const query = parseQuery(request, DeployArchiveQuery);
        const { deploy, deployment } = await deployArchive(ctx, {
          userId: user.id,
          siteId: site.id,
          kind: archive,
          body: bodyStream(request),
          message: query.message || null,
          draft: query.draft === "true",
        });
        return answer(reply, 201, deploy, site.subdomain, { deployment });
      }
      if (type !== "application/json") throw new AppError("unsupported_media_type", 415, DEPLOY_TEXT.unsupportedBody);
      const body = parseBody(request, CreateDeployRequest, await readJson(request, DEPLOY_MANIFEST_MAX_BYTES));
      const opened = await openDeploy(ctx, user.id, site.id, body);
      const { deployment, missing } = await deployState(ctx.db, opened.deploy, opened);
      return reply.status(opened.created ? 201 : 200).send(presentDeploy(opened.deploy, deployment, missing, site, ctx.urls));
    },
  );

  app.get<DeployParams>(
    "/api/sites/:siteId/deploys/:deployId",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: { summary: "Read a deploy", description: "Its state and the digests still missing.", tags, response: { 200: DeployResponse } },
      },
    },
    async (request, reply) => {
      const deploy = await requireDeploy(ctx.db, request.user.id, request.site.id, request.params.deployId);
      return answer(reply, 200, deploy, request.site.subdomain);
    },
  );

  app.put<FileParams>(
    "/api/sites/:siteId/deploys/:deployId/files/:sha256",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Upload one file of a deploy",
          description: "The bytes of the file with this digest; checked against the digest and the manifest's size. Sending it again is harmless.",
          tags,
          binary: { "application/octet-stream": "The file's bytes." },
          response: { 204: { description: "Received." } },
          errors: { 400: "The bytes do not match the digest or the size, or no file of the deploy has this digest.", 409: "The deploy is closed." },
        },
      },
    },
    async (request, reply) => {
      const { user, site, params } = request;
      await receiveDeployFile(ctx, {
        userId: user.id,
        siteId: site.id,
        deployId: params.deployId,
        sha256: params.sha256,
        body: bodyStream(request),
        declaredLength: declaredLength(request),
      });
      return reply.status(204).send();
    },
  );

  app.post<DeployParams>(
    "/api/sites/:siteId/deploys/:deployId/files",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Upload many files of a deploy",
          description:
            "An uncompressed tar whose entries are named by their SHA-256: many small files in one request. The answer lists what is still missing.",
          tags,
          binary: { "application/x-tar": "Regular files named by their digest." },
          response: { 200: DeployResponse },
          errors: { 409: "The deploy is closed." },
        },
      },
    },
    async (request, reply) => {
      const { user, site, params } = request;
      if (mediaType(request) !== "application/x-tar") throw new AppError("unsupported_media_type", 415, DEPLOY_TEXT.tarRequired);
      const { deploy, missing } = await receiveDeployTar(ctx, {
        userId: user.id,
        siteId: site.id,
        deployId: params.deployId,
        body: bodyStream(request),
      });
      return answer(reply, 200, deploy, site.subdomain, { missing });
    },
  );

  app.post<DeployParams>(
    "/api/sites/:siteId/deploys/:deployId/publish",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Publish a deploy",
          description:
            "Atomically: a new version, live at once or a draft served on its own version host until promoted. Publishing it again answers the same version. The last missing files may come with it, as the tar that Upload many files takes: a small change is then deployed in two requests.",
          tags,
          binary: { "application/x-tar": "Optional: files still missing, named by their digest; stored before the publish." },
          response: { 200: DeployResponse },
          errors: { 400: "A file of the tar is refused, as by Upload many files.", 409: "Files are still missing, or the deploy has expired." },
        },
      },
    },
    async (request, reply) => {
      const { user, site, params } = request;
      if (mediaType(request) === "application/x-tar") {
        await receiveFilesWithPublish(ctx, { userId: user.id, siteId: site.id, deployId: params.deployId, body: bodyStream(request) });
      }
      const { deploy, deployment } = await publishDeploy(ctx, user.id, site.id, params.deployId);
      return answer(reply, 200, deploy, site.subdomain, { deployment });
    },
  );
}
