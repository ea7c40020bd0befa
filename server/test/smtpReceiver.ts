// A real SMTP server on loopback for tests that check what Berth mails: point BERTH_SMTP_URL at
// `url` and read what arrived, decoded as a mail client would.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { parseEml, type OutboxMessage } from "./outbox";

export interface ReceivedMail extends OutboxMessage {
  /** The envelope's recipients. */
  rcptTo: string[];
}

/** Quoted-printable soft breaks and escapes, undone. */
function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(
    text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  );
  return bytes.toString("utf8");
}

export class SmtpReceiver {
  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
    /** Every mail so far, in the order it arrived. */
    readonly received: ReceivedMail[],
  ) {}

  static async start(): Promise<SmtpReceiver> {
    const received: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("latin1");
          const split = raw.indexOf("\r\n\r\n");
          const quoted = /content-transfer-encoding:\s*quoted-printable/i.test(raw.slice(0, split));
          const body = quoted ? decodeQuotedPrintable(raw.slice(split + 4)) : Buffer.from(raw.slice(split + 4), "latin1").toString("utf8");
          const mail = parseEml("smtp", `${raw.slice(0, split)}\r\n\r\n${body}`);
          received.push({ ...mail, rcptTo: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.server.address() as AddressInfo).port;
    return new SmtpReceiver(server, `smtp://127.0.0.1:${port}`, received);
  }

  /** Mails whose envelope names `address`. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.rcptTo.includes(address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
