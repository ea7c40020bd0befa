// Site test data through the real API: multipart bodies built by hand, zips by the test zip writer.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { writeZip, type ZipEntrySpec } from "./uploads/zipBuilder";
import type { SiteResponse } from "../../common/sites";
import type { TestClient } from "./support";

export interface UploadPart {
  name: string;
  content: Buffer | string;
  type?: string;
}

export function multipartBody(fields: Record<string, string>, file?: UploadPart): { body: Buffer; contentType: string } {
  const boundary = `----berth${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function postMultipart(
  client: TestClient,
  url: string,
  fields: Record<string, string>,
  file?: UploadPart,
): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipartBody(fields, file);
  return client.request("POST", url, { headers: { "content-type": contentType }, payload: body });
}

export async function zipOf(entries: ZipEntrySpec[]): Promise<Buffer> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "berth-zip-")), "site.zip");
  await writeZip(file, entries);
  return readFileSync(file);
}

/** Reserves a subdomain and creates a site with one file, as the wizard does. */
export async function createSiteWith(client: TestClient, file: UploadPart, name = "Test site"): Promise<SiteResponse> {
  const reserved = await client.post("/api/subdomains/reserve", {});
  if (reserved.statusCode !== 200) throw new Error(`reserve failed: ${reserved.body}`);
  const response = await postMultipart(client, "/api/sites", { name, subdomain: reserved.json().subdomain }, file);
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export const htmlFile = (body = "<h1>Hello</h1>", name = "index.html"): UploadPart => ({ name, content: body, type: "text/html" });

/** The Host header of a site URL such as http://abcde.localhost:8080/. */
export const hostOf = (url: string) => new URL(url).host;
