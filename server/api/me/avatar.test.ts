import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, hostOf } from "../../test/sites";
import { blobs, profiles } from "../../db/schema";
import type { MeResponse } from "../../../common/api";
import { ACCOUNT_TEXT, AVATAR_MAX_BYTES } from "../../../common/account";
import { JPEG_HEAD, PNG_1x1, WEBP_HEAD, png, pngOfSize, uploadAvatar } from "../../test/avatars";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe.each(DRIVERS)("the profile picture (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const stored = async (sha: string) => (await server.ctx.blobs.stat(sha)) !== undefined;
  const avatarOf = async (userId: string) => (await server.ctx.db.select().from(profiles).where(eq(profiles.id, userId)))[0]!;

  it("uploads a PNG, serves it to its owner as an inert image, and revalidates with its ETag", async () => {
    const { client, user } = await signedInClient(server);
    const response = await uploadAvatar(client, png());
    expect(response.statusCode, response.body).toBe(200);
    const sha = sha256(PNG_1x1);
    const me = response.json<MeResponse>();
    expect(me.profile.avatar_url).toBe(`/api/me/avatar?v=${sha.slice(0, 12)}`);
    expect((await client.get("/api/me")).json<MeResponse>().profile.avatar_url).toBe(me.profile.avatar_url);
    expect(await avatarOf(user.id)).toMatchObject({ avatar_sha256: sha, avatar_type: "image/png", avatar_url: me.profile.avatar_url });

    const image = await client.get(me.profile.avatar_url!);
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(PNG_1x1)).toBe(true);
    expect(image.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": String(PNG_1x1.length),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'",
      "cross-origin-resource-policy": "same-origin",
      etag: `"${sha}"`,
    });
    expect(image.headers["cache-control"]).toMatch(/^private\b/);

    const again = await client.get(me.profile.avatar_url!, { "if-none-match": `"${sha}"` });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const changed = await client.get(me.profile.avatar_url!, { "if-none-match": `"${"0".repeat(64)}"` });
    expect(changed.statusCode).toBe(200);
  });

  it.each([
    ["JPEG", JPEG_HEAD, "image/jpeg", "photo.jpg"],
    ["WebP", WEBP_HEAD, "image/webp", "photo.webp"],
    // The name and the browser's type do not matter, only the bytes.
    ["PNG named .txt", PNG_1x1, "image/png", "notes.txt"],
  ])("accepts %s and serves it with the type its bytes show", async (_name, bytes, type, filename) => {
    const { client } = await signedInClient(server);
    const response = await uploadAvatar(client, { name: filename, content: bytes, type: "application/octet-stream" });
    expect(response.statusCode, response.body).toBe(200);
    const image = await client.get(response.json<MeResponse>().profile.avatar_url!);
    expect(image.headers["content-type"]).toBe(type);
    expect(image.rawPayload.equals(bytes)).toBe(true);
  });

  it.each([
    ["an SVG renamed .png", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>'],
    ["an HTML page renamed .png", "<!doctype html><script>alert(document.cookie)</script>"],
    ["a GIF", "GIF89a\x01\x00\x01\x00\x00\x00\x00;"],
    ["an empty file", ""],
    ["a truncated PNG signature", PNG_1x1.subarray(0, 5)],
  ])("refuses %s with 400 and stores nothing", async (_name, content) => {
    const { client, user } = await signedInClient(server);
    const response = await uploadAvatar(client, { name: "me.png", content, type: "image/png" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: "avatar_unsupported_type",
      message: ACCOUNT_TEXT.avatarUnsupported,
      detail: ACCOUNT_TEXT.avatarUnsupportedDetail,
    });
    expect(await stored(sha256(Buffer.from(content)))).toBe(false);
    expect((await avatarOf(user.id)).avatar_sha256).toBeNull();
  });

  it("takes a picture of exactly 2 MB and refuses one byte more with 413", async () => {
    const { client, user } = await signedInClient(server);
    const exact = pngOfSize(AVATAR_MAX_BYTES, 7);
    expect((await uploadAvatar(client, png(exact))).statusCode).toBe(200);

    const tooBig = pngOfSize(AVATAR_MAX_BYTES + 1, 8);
    const refused = await uploadAvatar(client, png(tooBig));
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error).toEqual({
      code: "avatar_too_large",
      message: ACCOUNT_TEXT.avatarTooLarge,
      detail: ACCOUNT_TEXT.avatarTooLargeDetail,
    });
    expect(await stored(sha256(tooBig))).toBe(false);
    // The previous picture stays.
    expect((await avatarOf(user.id)).avatar_sha256).toBe(sha256(exact));
  });

  it("asks for a file when the upload has none", async () => {
    const { client } = await signedInClient(server);
    expect((await uploadAvatar(client, png(), "picture")).statusCode).toBe(400);
    const notMultipart = await client.request("PUT", "/api/me/avatar", { json: { url: "https://example.com/me.png" } });
    expect(notMultipart.statusCode).toBe(400);
  });

  it("replacing a picture deletes the old blob; removing it deletes the new one", async () => {
    const { client, user } = await signedInClient(server);
    const first = pngOfSize(500, 1);
    const second = pngOfSize(500, 2);
    await uploadAvatar(client, png(first));
    const replaced = await uploadAvatar(client, png(second));
    expect(replaced.json<MeResponse>().profile.avatar_url).toBe(`/api/me/avatar?v=${sha256(second).slice(0, 12)}`);
    expect(await stored(sha256(first))).toBe(false);
    expect(await stored(sha256(second))).toBe(true);

    const removed = await client.delete("/api/me/avatar");
    expect(removed.statusCode).toBe(200);
    expect(removed.json<MeResponse>().profile.avatar_url).toBeNull();
    expect(await avatarOf(user.id)).toMatchObject({ avatar_sha256: null, avatar_type: null, avatar_url: null });
    expect(await stored(sha256(second))).toBe(false);
    expect(
      await server.ctx.db
        .select()
        .from(blobs)
        .where(eq(blobs.sha256, sha256(second))),
    ).toEqual([]);
    expect((await client.get("/api/me/avatar")).statusCode).toBe(404);
    // Removing again is harmless.
    expect((await client.delete("/api/me/avatar")).statusCode).toBe(200);
  });

  it("never deletes bytes a site file or another user's picture still uses", async () => {
    const owner = await signedInClient(server);
    const friend = await signedInClient(server);
    const shared = pngOfSize(800, 3);
    const sha = sha256(shared);

    // The same bytes are a published site's file …
    const site = await createSiteWith(owner.client, { name: "logo.png", content: shared, type: "image/png" });
    await uploadAvatar(owner.client, png(shared));
    await owner.client.delete("/api/me/avatar");
    expect(await stored(sha)).toBe(true);
    expect((await server.edge.get(hostOf(site.url), "/logo.png")).status).toBe(200);

    // … and another user's picture.
    const other = pngOfSize(900, 4);
    await uploadAvatar(owner.client, png(other));
    await uploadAvatar(friend.client, png(other));
    await owner.client.delete("/api/me/avatar");
    expect(await stored(sha256(other))).toBe(true);
    const image = await friend.client.get("/api/me/avatar");
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(other)).toBe(true);
    await friend.client.delete("/api/me/avatar");
    expect(await stored(sha256(other))).toBe(false);
  });

  it("shows a picture to its owner only", async () => {
    const owner = await signedInClient(server);
    const other = await signedInClient(server);
    const secret = pngOfSize(300, 9);
    const url = (await uploadAvatar(owner.client, png(secret))).json<MeResponse>().profile.avatar_url!;

    // Another user asking for the same URL gets their own (none), never the owner's.
    const asOther = await other.client.get(url);
    expect(asOther.statusCode).toBe(404);
    expect(asOther.json().error.code).toBe("avatar_not_found");
    // Their upload and removal change only their own picture.
    await uploadAvatar(other.client, png(pngOfSize(300, 10)));
    await other.client.delete("/api/me/avatar");
    const mine = await owner.client.get(url);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(secret)).toBe(true);
  });

  it.each([
    ["PUT", (s: TestServer) => uploadAvatar(s.client(), png())],
    ["GET", (s: TestServer) => s.client().get("/api/me/avatar")],
    ["DELETE", (s: TestServer) => s.client().delete("/api/me/avatar")],
  ])("%s /api/me/avatar as a guest is 401", async (_method, call) => {
    const response = await call(server);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("not_authenticated");
  });
});
