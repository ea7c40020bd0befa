// Endpoint secrets at rest. The worker must sign every delivery with the secret itself, so it
// cannot be kept as a hash like an API token's; it is encrypted with AES-256-GCM under a key
// derived from the server secret, so a copy of the database alone (a backup, a leaked dump) does
// not give the secrets away. Changing BERTH_SECRET makes the stored secrets unreadable, as it ends
// sessions and share links: such endpoints need to be added again.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

const VERSION = "v1";

/** The encryption key of endpoint secrets: a label of its own under the server secret, as the other derived keys. */
export function webhookSecretKey(serverSecret: string): Buffer {
  return createHmac("sha256", serverSecret).update("berth:webhooks:endpoint-secret-key").digest();
}

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function sealSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** The secret sealed in `sealed`; throws when it was sealed under another key or altered. */
export function openSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error("not a sealed webhook secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
