// Deploy API test data: manifests of in-memory files, digest-named tars, and the calls of the
// incremental deploy.
import { createHash } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import type { DeployResponse, ManifestEntry } from "../../common/deploys";
import type { TestClient } from "./support";
import { tarOf } from "./uploads/tarBuilder";

export { paxEntry, tarEntry, tarGzOf, tarHeader, tarOf, type TarSpec } from "./uploads/tarBuilder";

export interface FileSpec {
  path: string;
  content: string | Buffer;
}

export const bytesOf = (content: string | Buffer) => (Buffer.isBuffer(content) ? content : Buffer.from(content));
export const sha256Of = (content: string | Buffer) => createHash("sha256").update(bytesOf(content)).digest("hex");

export function manifestOf(files: FileSpec[]): ManifestEntry[] {
  return files.map((f) => ({ path: f.path, sha256: sha256Of(f.content), size: bytesOf(f.content).length }));
}

/** A tar of the files named by their digests, as the CLI sends them. */
export const digestTarOf = (files: FileSpec[]) => tarOf(files.map((f) => ({ name: sha256Of(f.content), content: f.content })));

export async function openDeploy(
  client: TestClient,
  siteId: string,
  body: { files: ManifestEntry[]; folders?: string[]; message?: string | null; draft?: boolean },
): Promise<LightMyRequestResponse> {
  return client.post(`/api/sites/${siteId}/deploys`, body);
}

export async function putFile(client: TestClient, siteId: string, deployId: string, content: string | Buffer, sha = sha256Of(content)) {
  return client.request("PUT", `/api/sites/${siteId}/deploys/${deployId}/files/${sha}`, {
    headers: { "content-type": "application/octet-stream" },
    payload: bytesOf(content),
  });
}

export async function postTar(client: TestClient, siteId: string, deployId: string, tar: Buffer) {
  return client.request("POST", `/api/sites/${siteId}/deploys/${deployId}/files`, { headers: { "content-type": "application/x-tar" }, payload: tar });
}

export async function publish(client: TestClient, siteId: string, deployId: string) {
  return client.post(`/api/sites/${siteId}/deploys/${deployId}/publish`, {});
}

/** A publish that brings the last files with it, as a digest-named tar. */
export async function publishWithTar(client: TestClient, siteId: string, deployId: string, tar: Buffer) {
  return client.request("POST", `/api/sites/${siteId}/deploys/${deployId}/publish`, {
    headers: { "content-type": "application/x-tar" },
    payload: tar,
  });
}

/** Opens, uploads what is missing and publishes: the whole incremental deploy. */
export async function deployFiles(
  client: TestClient,
  siteId: string,
  files: FileSpec[],
  options: { draft?: boolean; message?: string; folders?: string[] } = {},
) {
  const opened = await openDeploy(client, siteId, { files: manifestOf(files), ...options });
  if (opened.statusCode >= 300) throw new Error(`open failed: ${opened.statusCode} ${opened.body}`);
  const deploy = opened.json<DeployResponse>();
  const missing = new Set(deploy.missing);
  const toSend = files.filter((f) => missing.delete(sha256Of(f.content)));
  if (toSend.length > 0) {
    const sent = await postTar(client, siteId, deploy.id, digestTarOf(toSend));
    if (sent.statusCode !== 200) throw new Error(`upload failed: ${sent.statusCode} ${sent.body}`);
  }
  const published = await publish(client, siteId, deploy.id);
  if (published.statusCode !== 200) throw new Error(`publish failed: ${published.statusCode} ${published.body}`);
  return { opened: deploy, published: published.json<DeployResponse>() };
}
