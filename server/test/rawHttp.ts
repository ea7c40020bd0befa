// A client that writes raw bytes to a server and reads the answers back in order: for tests of
// framing, pipelining and malformed requests, which node's own client would refuse to send.
import net from "node:net";

export interface RawResponse {
  status: number;
  /** The head as sent, for checks of spelling and order. */
  head: string;
  /** Lower-cased names; a repeated field keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
}

export class RawConnection {
  private received = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
    socket.on("error", () => {});
  }

  /** `localAddress` binds the client's end, e.g. 127.0.0.2 to be another client on loopback. */
  static open(port: number, options: { localAddress?: string } = {}): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: "127.0.0.1", ...options }, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(typeof data === "string" ? Buffer.from(data, "latin1") : data);
  }

  /** The next answer; `bodiless` for answers to HEAD (their Content-Length has no body). */
  async response(options: { bodiless?: boolean; timeoutMs?: number } = {}): Promise<RawResponse> {
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    for (;;) {
      const parsed = this.take(options.bodiless ?? false);
      if (parsed) return parsed;
      if (this.closed) throw new Error(`connection closed; unparsed: ${JSON.stringify(this.received.toString("latin1").slice(0, 200))}`);
      if (Date.now() > deadline) throw new Error("no complete answer in time");
      await this.next(deadline - Date.now());
    }
  }

  /** Resolves when the server has closed the connection; rejects after the timeout. */
  async closedByServer(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error("the server kept the connection open");
      await this.next(deadline - Date.now());
    }
  }

  /** Bytes received and not yet taken as answers. */
  get pending(): number {
    return this.received.length;
  }

  close(): void {
    this.socket.destroy();
  }

  private take(bodiless: boolean): RawResponse | undefined {
    const end = this.received.indexOf("\r\n\r\n");
    if (end === -1) return undefined;
    const head = this.received.toString("latin1", 0, end);
    const lines = head.split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1]);
    if (!status) throw new Error(`not a status line: ${lines[0]}`);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const noBody = bodiless || status === 304 || status === 204 || (status >= 100 && status < 200);
    const start = end + 4;
    let length: number;
    if (noBody) length = 0;
    else if (headers["content-length"] !== undefined) length = Number(headers["content-length"]);
    else if (headers["transfer-encoding"] === "chunked") return this.takeChunked(status, head, headers, start);
    else if (this.closed) length = this.received.length - start;
    else return undefined;
    if (this.received.length < start + length) return undefined;
    const body = Buffer.from(this.received.subarray(start, start + length));
    this.received = this.received.subarray(start + length);
    return { status, head, headers, body };
  }

  private takeChunked(status: number, head: string, headers: Record<string, string>, start: number): RawResponse | undefined {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = this.received.indexOf("\r\n", at);
      if (lineEnd === -1) return undefined;
      const size = parseInt(this.received.toString("latin1", at, lineEnd), 16);
      if (this.received.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) {
        this.received = this.received.subarray(lineEnd + 4);
        return { status, head, headers, body: Buffer.concat(parts) };
      }
      parts.push(Buffer.from(this.received.subarray(lineEnd + 2, lineEnd + 2 + size)));
      at = lineEnd + 2 + size + 2;
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private next(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(timeoutMs, 0));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
