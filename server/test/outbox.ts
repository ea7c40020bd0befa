// Reads the .eml files the outbox mailer writes, the way a person would open them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface OutboxMessage {
  file: string;
  headers: Record<string, string>;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export function parseEml(file: string, raw: string): OutboxMessage {
  const split = raw.indexOf("\r\n\r\n");
  const headers: Record<string, string> = {};
  for (const line of raw.slice(0, split).split("\r\n")) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = raw.slice(split + 4).replace(/\r\n/g, "\n");
  return {
    file,
    headers,
    to: headers.to ?? "",
    subject: headers.subject ?? "",
    text,
    links: text.match(/https?:\/\/\S+/g) ?? [],
  };
}

export class Outbox {
  constructor(readonly dir: string) {}

  messages(): OutboxMessage[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((name) => name.endsWith(".eml"))
      .sort()
      .map((name) => parseEml(name, readFileSync(path.join(this.dir, name), "utf8")));
  }

  messagesTo(to: string): OutboxMessage[] {
    return this.messages().filter((m) => m.to === to);
  }

  /** The link in the newest message to `to` whose subject matches. */
  lastLink(to: string, subject: RegExp): string {
    const message = this.messagesTo(to)
      .filter((m) => subject.test(m.subject))
      .at(-1);
    const link = message?.links[0];
    if (!link) throw new Error(`No message to ${to} matching ${subject} with a link; outbox has ${this.messages().length}`);
    return link;
  }
}
