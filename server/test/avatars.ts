// Test helpers for the account API: real image bytes and the avatar upload as a browser sends it.
import type { LightMyRequestResponse } from "fastify";
import { multipartBody, type UploadPart } from "./sites";
import type { TestClient } from "./support";

/** A real 1×1 PNG. */
export const PNG_1x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** PNG bytes of exactly `size` bytes: the signature and a 1×1 image, then padding after IEND. */
export function pngOfSize(size: number, fill = 0): Buffer {
  return Buffer.concat([PNG_1x1, Buffer.alloc(size - PNG_1x1.length, fill)]);
}

/** A JPEG's first bytes (SOI, JFIF APP0) and filler: what the type check reads. */
export const JPEG_HEAD = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from("JFIF\0"), Buffer.alloc(64, 1)]);

/** A WebP's RIFF header and filler. */
export const WEBP_HEAD = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x40, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(64, 2)]);

export function uploadAvatar(client: TestClient, file: UploadPart, fieldName = "file"): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipartBody({}, file);
  const payload = fieldName === "file" ? body : Buffer.from(body.toString("latin1").replace('name="file"', `name="${fieldName}"`), "latin1");
  return client.request("PUT", "/api/me/avatar", { headers: { "content-type": contentType }, payload });
}

export const png = (content: Buffer = PNG_1x1, name = "me.png"): UploadPart => ({ name, content, type: "image/png" });
