// Outgoing mail. With BERTH_SMTP_URL, messages go out over SMTP; without it, each one is written
// to $BERTH_DATA_DIR/outbox/<time>-<to>.eml and its link is logged, so a laptop install can
// confirm an account with no mail server at all.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import { PRIVATE_DIR, PRIVATE_FILE } from "../privateFiles";
import { renderRfc822, type MailMessage } from "./message";

export type { MailMessage };

export interface Mailer {
  /** Sends the message; `link` is the action link, logged when writing to the outbox. */
  send(message: MailMessage & { link?: string }): Promise<void>;
}

export function outboxFileName(to: string, date = new Date()): string {
  const time = date.toISOString().replace(/[:.]/g, "-");
  const safeTo = to.toLowerCase().replace(/[^a-z0-9@._+-]/g, "_");
  return `${time}-${safeTo}.eml`;
}

export function createOutboxMailer(outboxDir: string, from: string, log: FastifyBaseLogger): Mailer {
  return {
    async send(message) {
      // Owner-only: a message holds a working link (a password reset signs in as its recipient).
      await mkdir(outboxDir, { recursive: true, mode: PRIVATE_DIR });
      const file = path.join(outboxDir, outboxFileName(message.to));
      await writeFile(file, renderRfc822(from, message), { flag: "wx", mode: PRIVATE_FILE }).catch(async (error: NodeJS.ErrnoException) => {
        // Two messages to one address in the same millisecond: keep both.
        if (error.code !== "EEXIST") throw error;
        await writeFile(file.replace(/\.eml$/, `-${process.hrtime.bigint()}.eml`), renderRfc822(from, message), { flag: "wx", mode: PRIVATE_FILE });
      });
      log.info({ to: message.to, file }, `Mail "${message.subject}" written to the outbox${message.link ? `: ${message.link}` : ""}`);
    },
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // Made at the first message: an install that writes to the outbox never loads the SMTP client.
  let transport: Promise<Transporter> | undefined;
  const ready = () => (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
  return {
    async send(message) {
      await (
        await ready()
      ).sendMail({
        from,
        to: message.to,
        replyTo: message.replyTo,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}

export function createMailer(options: { smtpUrl: string | undefined; from: string; dataDir: string }, log: FastifyBaseLogger): Mailer {
  return options.smtpUrl
    ? createSmtpMailer(options.smtpUrl, options.from)
    : createOutboxMailer(path.join(options.dataDir, "outbox"), options.from, log);
}
