// Renders a message as RFC 5322 text for the outbox. The body is UTF-8 with 8bit transfer
// encoding so that links stay whole on one line: a person can copy them straight out of the file.
import { randomUUID } from "node:crypto";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

function encodeHeader(value: string): string {
  const clean = value.replace(/[\r\n]+/g, " ");
  return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, "utf8").toString("base64")}?=`;
}

export function renderRfc822(from: string, message: MailMessage, date = new Date()): string {
  const domain = from.match(/@([^>\s]+)/)?.[1] ?? "localhost";
  const headers = [
    `From: ${encodeHeader(from)}`,
    `To: ${encodeHeader(message.to)}`,
    ...(message.replyTo ? [`Reply-To: ${encodeHeader(message.replyTo)}`] : []),
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${date.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${randomUUID()}@${domain}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
  ];
  const body = message.text.replace(/\r?\n/g, "\r\n");
  return `${headers.join("\r\n")}\r\n\r\n${body}\r\n`;
}
