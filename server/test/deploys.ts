// Deploy API test data: manifests of in-memory files, and tar archives built header by header, so
// a test can write exactly the archive it means, damaged or hostile ones included.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import type { DeployResponse, ManifestEntry } from "../../common/deploys";
import type { TestClient } from "./support";

export interface FileSpec {
  path: string;
  content: string | Buffer;
}

export const bytesOf = (content: string | Buffer) => (Buffer.isBuffer(content) ? content : Buffer.from(content));
export const sha256Of = (content: string | Buffer) => createHash("sha256").update(bytesOf(content)).digest("hex");

export function manifestOf(files: FileSpec[]): ManifestEntry[] {
  return files.map((f) => ({ path: f.path, sha256: sha256Of(f.content), size: bytesOf(f.content).length }));
}

export interface TarSpec {
  name: string;
  content?: string | Buffer;
  /** The type flag: "0" a file (the default), "2" a symlink, "5" a folder, "L" a GNU long name, "x" a pax header… */
  type?: string;
  linkname?: string;
  /** "ustar\0" + "00" (POSIX, the default) or "ustar  \0" (GNU). */
  magic?: "posix" | "gnu";
  prefix?: string;
  /** Overrides the size field (a lying header). */
  size?: number;
}

/** One 512-byte header with its checksum. */
export function tarHeader(spec: TarSpec): Buffer {
  const header = Buffer.alloc(512);
  const size = spec.size ?? bytesOf(spec.content ?? "").length;
  header.write(spec.name, 0, 100, "utf8");
  header.write("0000644\0", 100, "ascii");
  header.write("0000000\0", 108, "ascii");
  header.write("0000000\0", 116, "ascii");
  header.write(size.toString(8).padStart(11, "0") + "\0", 124, "ascii");
  header.write("14000000000\0", 136, "ascii");
  header.write(spec.type ?? "0", 156, "ascii");
  if (spec.linkname) header.write(spec.linkname, 157, 100, "utf8");
  if (spec.magic === "gnu") header.write("ustar  \0", 257, "ascii");
  else header.write("ustar\u000000", 257, "ascii");
  if (spec.prefix) header.write(spec.prefix, 345, 155, "utf8");
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return header;
}

/** The entry: header, data, padding to 512. */
export function tarEntry(spec: TarSpec): Buffer {
  const data = bytesOf(spec.content ?? "");
  return Buffer.concat([tarHeader(spec), data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** A pax extended header ('x') carrying these records, for the entry after it. */
export function paxEntry(records: Record<string, string>): Buffer {
  const body = Object.entries(records)
    .map(([key, value]) => {
      const rest = ` ${key}=${value}\n`;
      let length = Buffer.byteLength(rest) + 1;
      while (String(length).length + Buffer.byteLength(rest) !== length) length = String(length).length + Buffer.byteLength(rest);
      return `${length}${rest}`;
    })
    .join("");
  return tarEntry({ name: "PaxHeader", type: "x", content: body });
}

/** Entries and the end marker (two zero blocks). */
export function tarOf(entries: Array<TarSpec | Buffer>): Buffer {
  return Buffer.concat([...entries.map((e) => (Buffer.isBuffer(e) ? e : tarEntry(e))), Buffer.alloc(1024)]);
}

export const tarGzOf = (entries: Array<TarSpec | Buffer>) => gzipSync(tarOf(entries));

/** A tar of the files named by their digests, as the CLI sends them. */
export const digestTarOf = (files: FileSpec[]) => tarOf(files.map((f) => ({ name: sha256Of(f.content), content: f.content })));

export async function openDeploy(
  client: TestClient,
  siteId: string,
  body: { files: ManifestEntry[]; message?: string | null; draft?: boolean },
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

/** Opens, uploads what is missing and publishes: the whole incremental deploy. */
export async function deployFiles(client: TestClient, siteId: string, files: FileSpec[], options: { draft?: boolean; message?: string } = {}) {
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
