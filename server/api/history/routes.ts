// The Files tab's history: read with `read`, restore with `deploy` (a restore publishes, as every
// change in the Files tab does). Rules in services/readHistory.ts and services/restoreFromHistory.ts.
import type { FastifyInstance } from "fastify";
import {
  CompareQuery,
  CompareResponse,
  DeletedFilesResponse,
  HistoryQuery,
  HistoryResponse,
  LivePeriodsResponse,
  RestoreAtRequest,
  RestoreResponse,
  RestoreVersionRequest,
  VersionFileQuery,
} from "../../../common/history";
import type { AppContext } from "../../context";
import { AppError } from "../../errors";
import { compareVersions, historyPath, openVersionFile, readDeletedFiles, readHistory, readLivePeriods } from "../../services/readHistory";
import { restoreSiteAt, restoreVersion, type Restored } from "../../services/restoreFromHistory";
import { attachmentHeaders, contentDisposition } from "../files/routes";
import { routeGuards } from "../routeGuards";
import { presentDeployment } from "../sites/present";
import { parseBody, parseQuery } from "../validate";

type SiteParams = { Params: { siteId: string } };
type VersionParams = { Params: { siteId: string; deploymentId: string } };

const presentRestored = (restored: Restored): RestoreResponse => ({
  // A restore that could not publish (a bad _redirects line in the old version) leaves the live one live.
  deployment: presentDeployment(restored.deployment, restored.deployment.status === "success" ? restored.deployment.id : null),
  restored_version: restored.restoredVersion,
});

export async function historyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get<SiteParams>(
    "/api/sites/:siteId/history",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "List a file's or folder's versions",
          description:
            "Every kept version in which the file was added or its content changed (a folder: anything under it), newest first. Without a path, the whole site's.",
          tags: ["History"],
          query: HistoryQuery,
          response: { 200: HistoryResponse },
        },
      },
    },
    async (request): Promise<HistoryResponse> => {
      const query = parseQuery(request, HistoryQuery);
      const path = historyPath(query.path);
      return readHistory(ctx, request.site, path, path === null || query.folder === "true");
    },
  );

  app.get<SiteParams>(
    "/api/sites/:siteId/history/deleted",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "List files deleted since a kept version",
          description: "Each file a kept version had and the working tree has not, as it was in the last version that had it.",
          tags: ["History"],
          response: { 200: DeletedFilesResponse },
        },
      },
    },
    async (request): Promise<DeletedFilesResponse> => ({ files: await readDeletedFiles(ctx, request.site) }),
  );

  app.get<SiteParams>(
    "/api/sites/:siteId/history/live-periods",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "List which version was live when",
          description: "Each time the live version changed (a publish, a rollback, a promotion), newest first.",
          tags: ["History"],
          response: { 200: LivePeriodsResponse },
        },
      },
    },
    async (request): Promise<LivePeriodsResponse> => ({ periods: await readLivePeriods(ctx, request.site) }),
  );

  app.get<VersionParams>(
    "/api/sites/:siteId/deployments/:deploymentId/download",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "Download a file as a version had it",
          tags: ["History"],
          query: VersionFileQuery,
          response: { 200: { description: "The file's bytes, as an attachment.", contentType: "application/octet-stream" } },
          errors: { 404: "That version has no such file, or is no longer kept (version_not_kept).", 410: "The file's stored content is missing." },
        },
      },
      onSend: attachmentHeaders,
    },
    async (request, reply) => {
      const path = historyPath(parseQuery(request, VersionFileQuery).path);
      if (path === null) throw new AppError("file_not_found", 404, "File not found");
      const { entry, stream } = await openVersionFile(ctx, request.site, request.params.deploymentId, path);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-length", entry.size)
        .header("content-disposition", contentDisposition(path.slice(path.lastIndexOf("/") + 1)))
        .header("cache-control", "private, no-store")
        .send(stream);
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/history/restore",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Restore a file or folder from a version",
          description:
            "Puts the file back as the version had it (a folder: exactly its contents then; an empty path with folder: the whole site) and publishes a new version. Other files do not change.",
          tags: ["History"],
          body: RestoreVersionRequest,
          response: { 201: RestoreResponse },
          errors: {
            404: "That version has no such file or folder, or is no longer kept (version_not_kept).",
            409: "A file or folder now stands in the way.",
            410: "The version's stored content is missing (content_missing).",
            413: "Over the plan's storage.",
          },
        },
      },
    },
    async (request, reply) => {
      const body = parseBody(request, RestoreVersionRequest);
      const path = historyPath(body.path);
      const restored = await restoreVersion(ctx, {
        userId: request.user.id,
        siteId: request.site.id,
        deploymentId: body.deploymentId,
        path,
        folder: path === null || body.folder === true,
      });
      return reply.status(201).send(presentRestored(restored));
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/history/restore-at",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Restore the site as it was at a moment",
          description:
            "Needs a plan with pointInTimeRecovery. Publishes a new version with exactly the files that were live at that time: the version live then, rollbacks included.",
          tags: ["History"],
          body: RestoreAtRequest,
          response: { 201: RestoreResponse },
          errors: {
            403: "The user's plan does not include point-in-time restore (pro_required); the message names the plan that does.",
            404: "The version live then is no longer kept (version_not_kept).",
            409: "Nothing of the site was live at that time.",
          },
        },
      },
    },
    async (request, reply) => {
      const body = parseBody(request, RestoreAtRequest);
      const restored = await restoreSiteAt(ctx, { userId: request.user.id, siteId: request.site.id, at: new Date(body.at) });
      return reply.status(201).send(presentRestored(restored));
    },
  );

  app.get<SiteParams>(
    "/api/sites/:siteId/compare",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "Compare two versions",
          description:
            "Files added, changed and removed from one version to another; with a path, that file's line diff (text files up to 1 MB on each side). Without ids: the live version against the one before it.",
          tags: ["History"],
          query: CompareQuery,
          response: { 200: CompareResponse },
          errors: { 404: "The path is the same in both versions, or a version is no longer kept.", 409: "The site has only one version." },
        },
      },
    },
    async (request): Promise<CompareResponse> => {
      const query = parseQuery(request, CompareQuery);
      return compareVersions(ctx, request.site, { from: query.from, to: query.to, path: historyPath(query.path) });
    },
  );
}
