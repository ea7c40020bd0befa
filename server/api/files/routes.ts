import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  CreateFolderRequest,
  DeleteFileResponse,
  FolderResponse,
  SiteFileListResponse,
  SiteFilesQuery,
  UploadFilesFields,
  UploadResponse,
} from "../../../common/sites";
import { SiteManifestResponse } from "../../../common/deploys";
import { validateSitePath } from "../../../common/uploads";
import type { AppContext } from "../../context";
import { listEmptyFolders, listSiteFilesInFolder, listWorkingTreeFiles } from "../../db/repositories/siteFiles";
import { AppError } from "../../errors";
import { addFilesToSite, createFolder, deleteSiteFile } from "../../services/changeSiteFiles";
import { openSiteFile } from "../../services/openSiteFile";
import { UUID } from "../../services/siteAccess";
import { stageUploadForUser } from "../../services/stageUploadForUser";
import { routeGuards } from "../routeGuards";
import { incomingFile, readUpload } from "../sites/multipart";
import { presentDeployment, presentFile } from "../sites/present";
import { parseBody, parseFormFields, parseQuery } from "../validate";

/** "a/b" → "a/b"; "" or absent → the root (null). Anything unsafe is a 400. */
function folderParam(value: string | null | undefined): string | null {
  if (!value) return null;
  const checked = validateSitePath(value.replace(/^\/+|\/+$/g, ""));
  if (!checked.ok) throw new AppError("invalid_path", 400, checked.error);
  return checked.path;
}

type SiteParams = { Params: { siteId: string } };
type FileParams = { Params: { siteId: string; fileId: string } };

export async function fileRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get<SiteParams>(
    "/api/sites/:siteId/files",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "List the files in a folder",
          description: "One folder of the site's working tree: folders first, then files by name.",
          tags: ["Files"],
          query: SiteFilesQuery,
          response: { 200: SiteFileListResponse },
        },
      },
    },
    async (request): Promise<SiteFileListResponse> => {
      const files = await listSiteFilesInFolder(ctx.db, request.site.id, folderParam(parseQuery(request, SiteFilesQuery).parent));
      return { files: files.map((f) => presentFile(f, request.site, ctx.urls)) };
    },
  );

  app.get<SiteParams>(
    "/api/sites/:siteId/files/manifest",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "List every file as a manifest",
          description:
            "Every file of the working tree with its SHA-256 and size, by path, and its empty folders: the manifest of a deploy that changes part of the site and keeps the rest.",
          tags: ["Files"],
          response: { 200: SiteManifestResponse },
        },
      },
    },
    async (request): Promise<SiteManifestResponse> => ({
      files: await listWorkingTreeFiles(ctx.db, request.site.id),
      folders: await listEmptyFolders(ctx.db, request.site.id),
    }),
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/files",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Upload a file or a zip",
          description: "Adds the file (or the zip's contents, with extract) to the working tree and publishes the result as a new version.",
          tags: ["Files"],
          form: { fields: UploadFilesFields, file: "The file, or a zip to unpack with extract." },
          response: { 201: UploadResponse },
          errors: { 413: "Over the plan's file size or storage.", 507: "The server's disk is full; nothing was changed." },
        },
      },
    },
    async (request, reply) => {
      const { user, site } = request;
      const result = await readUpload(request, async (fields, file) => {
        let parsed: { parent: string | null; extract: boolean };
        try {
          const form = parseFormFields(request, UploadFilesFields, fields);
          parsed = { parent: folderParam(form.parent), extract: form.extract === "true" };
        } catch (error) {
          file.file.resume();
          throw error;
        }
        const { staged, quotaBytes } = await stageUploadForUser(ctx, user.id, incomingFile(file), { extractZip: parsed.extract });
        return addFilesToSite(ctx, {
          userId: user.id,
          siteId: site.id,
          parent: parsed.parent,
          staged,
          quotaBytes,
          note: `Uploaded ${file.filename}`,
        });
      });
      const liveId = result.deployment.status === "success" ? result.deployment.id : site.live_deployment_id;
      const body: UploadResponse = {
        files: result.files.map((f) => presentFile(f, site, ctx.urls)),
        deployment: presentDeployment(result.deployment, liveId),
      };
      return reply.status(201).send(body);
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/folders",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Create a folder",
          description: "An empty folder in the working tree, published as a new version.",
          tags: ["Files"],
          body: CreateFolderRequest,
          response: { 201: FolderResponse },
        },
      },
    },
    async (request, reply) => {
      const { user, site } = request;
      const body = parseBody(request, CreateFolderRequest);
      const result = await createFolder(ctx, { userId: user.id, siteId: site.id, parent: folderParam(body.parent), name: body.name });
      const response: FolderResponse = {
        file: presentFile(result.file, site, ctx.urls),
        deployment: presentDeployment(result.deployment, result.deployment.id),
      };
      return reply.status(201).send(response);
    },
  );

  app.delete<FileParams>(
    "/api/sites/:siteId/files/:fileId",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Delete a file or a folder",
          description: "A folder goes with everything in it. The change is published as a new version.",
          tags: ["Files"],
          response: { 200: DeleteFileResponse },
          errors: { 404: "No such file in this site." },
        },
      },
    },
    async (request): Promise<DeleteFileResponse> => {
      const { user, site } = request;
      if (!UUID.test(request.params.fileId)) throw new AppError("file_not_found", 404, "File not found");
      const result = await deleteSiteFile(ctx, { userId: user.id, siteId: site.id, fileId: request.params.fileId });
      return { deployment: presentDeployment(result.deployment, result.deployment.id) };
    },
  );

  app.get<FileParams>(
    "/api/sites/:siteId/files/:fileId/download",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "Download a file",
          tags: ["Files"],
          response: { 200: { description: "The file's bytes, as an attachment.", contentType: "application/octet-stream" } },
          errors: { 404: "No such file in this site." },
        },
      },
      onSend: attachmentHeaders,
    },
    async (request, reply) => {
      const { file, stream } = await openSiteFile(ctx, request.site.id, request.params.fileId);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-length", file.file_size)
        .header("content-disposition", contentDisposition(file.filename))
        .header("cache-control", "private, no-store")
        .send(stream);
    },
  );
}

/**
 * Runs after the app-wide security headers, so these win: a user's file on the dashboard's origin
 * must never run, even if a browser ignored the attachment (a CSP that allows nothing, sandboxed).
 */
export async function attachmentHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header("content-security-policy", "default-src 'none'; sandbox");
  reply.header("x-content-type-options", "nosniff");
  return payload;
}

/** An attachment header that survives any file name: ASCII fallback plus RFC 5987 UTF-8. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
