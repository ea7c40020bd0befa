import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer, outboxFileName } from "./mailer";
import { renderRfc822 } from "./message";
import { verifyEmailMessage } from "./templates";

const log = pino({ level: "silent" });
const longLink = "http://localhost:8080/api/auth/verify-email?token=" + "x".repeat(300) + "&callbackURL=%2Fauth%2Flogin";

describe("the outbox", () => {
  it("writes an RFC 822 message per mail, with the link whole on one line", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-outbox-"));
    const mailer = createMailer({ smtpUrl: undefined, from: "Berth <no-reply@localhost>", dataDir }, log);
    await mailer.send(verifyEmailMessage("ada@example.com", longLink));
    const files = readdirSync(path.join(dataDir, "outbox"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-ada@example\.com\.eml$/);
    const raw = readFileSync(path.join(dataDir, "outbox", files[0]!), "utf8");
    expect(raw).toMatch(/^From: Berth <no-reply@localhost>\r\nTo: ada@example\.com\r\n/);
    expect(raw).toContain("Subject: Confirm your e-mail address for Berth\r\n");
    expect(raw).toContain("\r\n" + longLink + "\r\n");
  });

  it("keeps both messages sent to one address in the same instant", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-outbox-"));
    const mailer = createMailer({ smtpUrl: undefined, from: "Berth <no-reply@localhost>", dataDir }, log);
    await Promise.all([1, 2, 3].map((n) => mailer.send({ to: "a@example.com", subject: `n${n}`, text: "x" })));
    expect(readdirSync(path.join(dataDir, "outbox"))).toHaveLength(3);
  });

  it("makes file names safe from the recipient", () => {
    expect(outboxFileName("../../etc/passwd", new Date(0))).toBe("1970-01-01T00-00-00-000Z-.._.._etc_passwd.eml");
  });

  it("encodes non-ASCII headers and blocks header injection", () => {
    const raw = renderRfc822("Berth <a@b.c>", { to: "x@y.z\r\nBcc: evil@x.y", subject: "Héllo", text: "hi" });
    expect(raw).toContain("Subject: =?UTF-8?B?");
    expect(raw).not.toMatch(/\r\nBcc:/);
  });
});

describe("SMTP", () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let smtp: SMTPServer;
  let port: number;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (chunk: Buffer) => (data += chunk.toString()));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it("delivers through BERTH_SMTP_URL", async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: "Berth <no-reply@berth.test>", dataDir: "/nonexistent" }, log);
    await mailer.send(verifyEmailMessage("ada@example.com", "http://localhost:8080/verify?token=abc"));
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe("no-reply@berth.test");
    expect(received[0]!.to).toEqual(["ada@example.com"]);
    expect(received[0]!.data).toContain("Subject: Confirm your e-mail address for Berth");
    // The body may be quoted-printable; decode it as a mail client would.
    const body = received[0]!.data.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(body).toContain("http://localhost:8080/verify?token=abc");
  });
});
