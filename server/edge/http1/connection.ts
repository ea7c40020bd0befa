// One client connection on the edge's fast path. node:http spends about a third of a small
// request's CPU on generic machinery (an IncomingMessage and a ServerResponse per request,
// header validation, events); this reads plain GET/HEAD heads itself and answers with one
// write. The first request it cannot take (another host, a Range, a body, odd syntax) hands
// the connection, with every unanswered byte, to node:http for the rest of its life.
//
// Requests are answered strictly in order (HTTP/1.1 pipelining). Reading stops while the client
// is not reading its answers, or while unread input piles up behind a slow answer.
import type { Socket } from "node:net";
import type { OutgoingHttpHeaders } from "node:http";
import type { FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyBaseLogger } from "fastify";
import type { EdgeReply, ServedSite } from "../reply";
import type { AnalyticsRecorder } from "../analytics/collector";
import { MAX_HEAD_BYTES, parseRequestHead, type RequestHead } from "./requestHead";
import { pumpFile } from "./filePump";
import { headEnd, lent, responseHead, wholeResponse, WHOLE_MAX_BODY } from "./responseHead";
import { kernelSend, KERNEL_SEND_MIN_BYTES } from "../native/kernelSend";
import { sealedFileOf } from "../native/sealedBodies";
import { kept, readIntoSharedBuffer, readIntoStream } from "./sharedReads";
import { handleOf, plainTcpHandle } from "./socketHandle";
import { MAX_TARGET_LENGTH, TARGET_TOO_LONG } from "../requestLimits";
import { flat } from "../flatString";

const EMPTY = Buffer.alloc(0);

export interface ConnectionOptions {
  /** The site label for a Host, or undefined when the host is not a site (→ node:http). */
  siteLabel(host: string): string | undefined;
  /** The label of a Host under the sites domain, which never changes (HostRouter.stableLabel). */
  stableLabel(host: string): string | undefined;
  serve(req: RequestHead, reply: EdgeReply, label: string): void | Promise<void>;
  /** Gives the socket to node:http. */
  handOff(socket: Socket): void;
  log: FastifyBaseLogger;
  keepAliveMs: number;
  /** The most a request head may take to arrive in full (slow-header attacks). */
  headersTimeoutMs: number;
  /** Counts each answered request of a site; absent when analytics are off. */
  analytics?: AnalyticsRecorder | undefined;
  /** The idle sweep's clock (IdleSweep.now): read on every chunk received, so a field, not a call. */
  clock: { readonly now: number };
}

export class EdgeConnection implements EdgeReply {
  headersSent = false;
  served: ServedSite | undefined = undefined;
  path: string | undefined = undefined;
  /** Bytes received and not yet answered. */
  private input: Buffer | undefined;
  /** A request is being answered asynchronously. */
  private busy = false;
  private closing = false;
  private current: RequestHead | undefined;
  private incompleteSince = 0;
  /** The peer's address, read once (analytics). */
  private address: string | undefined;
  /** When the client last sent something, by the coarse clock (see `idle`). */
  private seenAt: number;
  /**
   * The Host of the previous request and its label, when that can never change (a host under
   * the sites domain): a client sends the same Host on every request of a connection, and
   * comparing two strings is cheaper than hashing one for a lookup.
   */
  private stableHost: string | undefined;
  private stableLabel: string | undefined;
  /** The previous request's Host when it was not under the sites domain (a custom domain, say). */
  private otherHost: string | undefined;
  private readonly keepAliveEnd: string;
  private static readonly closeEnd = headEnd(undefined);
  /**
   * The socket's own descriptor when the kernel may send bodies to it directly, else -1. Used only
   * while the socket still has its handle (nothingQueued): destroy() drops the handle in the same
   * tick it closes the descriptor, so a number reused by another connection is never written to.
   */
  private readonly fd: number;

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
    private readonly gone: (connection: EdgeConnection) => void,
  ) {
    this.keepAliveEnd = headEnd(Math.round(options.keepAliveMs / 1000));
    if (!readIntoSharedBuffer(socket, this.onRead)) socket.on("data", this.onData);
    socket.on("error", this.onError);
    socket.on("close", this.onClose);
    socket.on("timeout", this.onTimeout);
    this.seenAt = options.clock.now;
    this.fd = kernelSend !== undefined ? plainSocketFd(socket) : -1;
  }

  /**
   * Called by the server's idle sweep a few times a second. A keep-alive timer on the socket
   * itself (socket.setTimeout) would be re-armed on every read and every write: 6 % of the
   * requests a second of a minimal server on one core. So an idle connection is closed by the
   * sweep instead, between keepAliveMs and keepAliveMs plus two sweep periods after its last
   * request: late rather than early, which is the safe side of the advertised timeout. While an
   * answer is under way (a stream), the socket's own timer runs instead (see `process`).
   */
  idle(now: number, periodMs: number): void {
    if (this.busy) return;
    if (now - this.seenAt > this.options.keepAliveMs + periodMs) this.socket.destroy();
  }

  /** Server shutdown: an idle connection closes now, a busy one after its answer. */
  close(): void {
    this.closing = true;
    if (!this.busy) this.socket.destroy();
  }

  private readonly onData = (chunk: Buffer): void => {
    this.seenAt = this.options.clock.now;
    this.input = this.input === undefined ? chunk : Buffer.concat([this.input, chunk]);
    if (!this.busy) this.process();
    else if (this.input.length > MAX_HEAD_BYTES) this.socket.pause();
  };

  /** A read into the buffer every connection shares (sharedReads.ts). */
  private readonly onRead = (length: number, buffer: Buffer): boolean => {
    this.onData(buffer.subarray(0, length));
    // Unanswered bytes wait for later, and the next read, of any connection, overwrites these.
    if (this.input !== undefined) this.input = kept(this.input);
    return true;
  };

  private readonly onError = (): void => {
    // Resets and the like: 'close' follows, and there is nobody left to answer.
  };

  private readonly onClose = (): void => {
    this.input = undefined;
    this.gone(this);
  };

  private readonly onTimeout = (): void => {
    this.socket.destroy();
  };

  private process(): void {
    while (this.input !== undefined) {
      if (this.socket.writableNeedDrain) return this.waitForClient();
      const head = parseRequestHead(this.input);
      if (head === "incomplete") return this.awaitRestOfHead();
      this.incompleteSince = 0;
      if (head === "unsupported" || head.range) return this.handOff();
      const label = this.labelFor(head.host);
      if (label === undefined) return this.handOff();

      this.input = head.length === this.input.length ? undefined : this.input.subarray(head.length);
      this.current = head;
      this.headersSent = false;
      this.served = undefined;
      this.path = undefined;
      let pending: void | Promise<void> = undefined;
      try {
        // A target over 8 KB is refused before the site sees it: nothing is prepared or kept.
        if (head.url.length > MAX_TARGET_LENGTH)
          this.send(TARGET_TOO_LONG.status, TARGET_TOO_LONG.headers, head.method === "HEAD" ? undefined : TARGET_TOO_LONG.body);
        else pending = this.options.serve(head, this, label);
      } catch (error) {
        return this.crash(error);
      }
      if (pending !== undefined) {
        this.busy = true;
        // A client that stops reading a stream must not hold it for ever.
        this.socket.setTimeout(this.options.keepAliveMs);
        pending.then(this.resume, (error: unknown) => this.crash(error));
        return;
      }
      if (!this.keepsAlive()) return void this.socket.end();
    }
  }

  private labelFor(host: string): string | undefined {
    if (host === this.stableHost) return this.stableLabel;
    if (host !== this.otherHost) {
      const label = this.options.stableLabel(host);
      if (label !== undefined) {
        this.stableHost = host;
        this.stableLabel = label;
        return label;
      }
      this.otherHost = host;
    }
    // Asked on every request: a custom domain can stop being served while a proxy keeps its
    // connection open.
    return this.options.siteLabel(host);
  }

  /** After an asynchronous answer: the next request, if the connection stays. */
  private readonly resume = (): void => {
    this.busy = false;
    this.socket.setTimeout(0);
    this.seenAt = this.options.clock.now;
    if (!this.keepsAlive()) return void this.socket.end();
    if (this.socket.isPaused()) this.socket.resume();
    this.process();
  };

  private keepsAlive(): boolean {
    return this.current!.keepAlive && !this.closing;
  }

  private awaitRestOfHead(): void {
    const now = Date.now();
    if (this.incompleteSince === 0) this.incompleteSince = now;
    else if (now - this.incompleteSince > this.options.headersTimeoutMs) this.socket.destroy();
  }

  /** The client is not reading: stop reading its requests until it catches up. */
  private waitForClient(): void {
    this.socket.pause();
    this.socket.once("drain", () => {
      this.socket.resume();
      this.process();
    });
  }

  private handOff(): void {
    const { socket } = this;
    socket.removeListener("data", this.onData);
    socket.removeListener("error", this.onError);
    socket.removeListener("close", this.onClose);
    socket.removeListener("timeout", this.onTimeout);
    socket.setTimeout(0);
    this.gone(this);
    readIntoStream(socket);
    if (this.input !== undefined) socket.unshift(kept(this.input));
    this.input = undefined;
    this.options.handOff(socket);
    if (socket.isPaused()) socket.resume();
  }

  private crash(error: unknown): void {
    this.options.log.error({ err: error, url: this.current?.url }, "edge connection failed");
    this.socket.destroy();
  }

  // EdgeReply, for the request being answered (this.current).

  send(status: number, headers: OutgoingHttpHeaders, body?: Buffer): void {
    const end = this.keepsAlive() ? this.keepAliveEnd : EdgeConnection.closeEnd;
    this.headersSent = true;
    let sent = body !== undefined && body.length >= KERNEL_SEND_MIN_BYTES && this.fd >= 0 ? this.sendFromKernel(status, headers, body, end) : -1;
    if (sent < 0) sent = this.write(status, headers, body, end);
    if (this.served !== undefined) this.count(status, headers, sent);
  }

  /** Writes the answer: to the kernel directly when nothing is queued, else through Node; returns its bytes. */
  private write(status: number, headers: OutgoingHttpHeaders, body: Buffer | undefined, end: string): number {
    if (body === undefined || body.length <= WHOLE_MAX_BODY) {
      const whole = wholeResponse(status, headers, body ?? EMPTY, end);
      if (this.fd >= 0 && this.nothingQueued()) {
        // Straight to the kernel: node's stream machinery (write request, state, a tick for the
        // callback) costs more than the system call.
        return this.queueUnsent(kernelSend!.sendBuffer(this.fd, whole), whole);
      }
      this.socket.write(whole);
      // Queued rather than handed to the kernel: the buffer must stay as it is until sent.
      if (this.socket.writableLength !== 0) lent(headers, whole);
      return whole.length;
    }
    const head = responseHead(status, headers, end);
    this.socket.cork();
    this.socket.write(head, "latin1");
    this.socket.write(body);
    this.socket.uncork();
    return head.length + body.length;
  }

  /**
   * Sends a sealed body with sendfile when nothing is queued on the socket (so the bytes cannot
   * overtake earlier ones); what the kernel did not take at once goes through Node's own write
   * queue, behind it. Returns the answer's bytes, or -1 when the body is not sealed or the socket
   * is busy: the caller writes it instead.
   */
  private sendFromKernel(status: number, headers: OutgoingHttpHeaders, body: Buffer, end: string): number {
    const file = sealedFileOf(body);
    if (file === undefined || !this.nothingQueued()) return -1;
    // The head alone, kept ready like a bodiless answer's (the same entry as a HEAD request's).
    const head = wholeResponse(status, headers, EMPTY, end);
    return this.queueUnsent(kernelSend!.sendHead(this.fd, head, file, body.length), head, body);
  }

  /**
   * After a native send of `ready` (a buffer from wholeResponse) and then `body`: a negative
   * result (reset or closed under us) ends the connection as a failed write would; what the
   * kernel did not take is queued through Node, `ready`'s part as a copy, since its Date is
   * rewritten in place when the next second begins. Returns the answer's bytes, 0 on failure.
   */
  private queueUnsent(sent: number, ready: Buffer, body: Buffer = EMPTY): number {
    if (sent < 0) {
      this.socket.destroy();
      return 0;
    }
    if (sent < ready.length) {
      this.socket.cork();
      this.socket.write(Buffer.from(ready.subarray(sent)));
      if (body.length > 0) this.socket.write(body);
      this.socket.uncork();
    } else if (sent < ready.length + body.length) {
      this.socket.write(body.subarray(sent - ready.length));
    }
    return ready.length + body.length;
  }

  /** Nothing queued on the socket: bytes given to the kernel now cannot overtake earlier ones. */
  private nothingQueued(): boolean {
    const handle = handleOf(this.socket);
    return handle != null && this.socket.writableLength === 0 && handle.writeQueueSize === 0 && !this.socket.writableEnded;
  }

  /** Hands the answered request to analytics, when they are on and the site is known. */
  private count(status: number, headers: OutgoingHttpHeaders, bytes: number): void {
    const { analytics } = this.options;
    if (analytics === undefined) return;
    const head = this.current!;
    // Without a route (a password page, a closed site) the target is a slice of the head's text:
    // a copy of its own, or analytics would keep the whole head for it.
    const url = this.path ?? flat(head.url);
    analytics.record(this.served!, head.host, url, head.headers, (this.address ??= this.socket.remoteAddress), status, headers, bytes);
  }

  async stream(status: number, headers: OutgoingHttpHeaders, body: Readable): Promise<void> {
    const before = this.socket.bytesWritten;
    this.socket.write(responseHead(status, headers, this.keepsAlive() ? this.keepAliveEnd : EdgeConnection.closeEnd), "latin1");
    this.headersSent = true;
    try {
      // pipeline() waits for the client (backpressure), and destroys the blob stream if the client
      // goes away; `end: false` keeps the connection for the next request.
      await pipeline(body, this.socket, { end: false });
    } finally {
      // What reached the socket, so a download cut short counts only its bytes.
      if (this.served !== undefined) this.count(status, headers, this.socket.bytesWritten - before);
    }
  }

  async streamFile(status: number, headers: OutgoingHttpHeaders, file: FileHandle, size: number): Promise<void> {
    const before = this.socket.bytesWritten;
    try {
      this.socket.write(responseHead(status, headers, this.keepsAlive() ? this.keepAliveEnd : EdgeConnection.closeEnd), "latin1");
    } catch (error) {
      await file.close();
      throw error;
    }
    this.headersSent = true;
    try {
      await pumpFile(file, size, this.socket);
    } finally {
      if (this.served !== undefined) this.count(status, headers, this.socket.bytesWritten - before);
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A plain TCP socket's descriptor; -1 for TLS or anything else the kernel must not write to. */
function plainSocketFd(socket: Socket): number {
  const fd = plainTcpHandle(socket)?.fd;
  return typeof fd === "number" && fd >= 0 ? fd : -1;
}
