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
import { HOST_KIND_INDEX, type ServingCounts } from "../../metrics/counts";

const EMPTY = Buffer.alloc(0);
/**
 * At shutdown, how long a connection with no request in progress may still send one: a client
 * that just connected, or whose kept-alive connection was idle, may be writing a request at this
 * moment, and closing under it would reset a request it had every reason to think accepted. The
 * answer closes the connection (node:http's connections get the same, httpServer.ts).
 */
export const LAST_CALL_MS = 1000;

/**
 * How the edge's connections have read and written since the process started, counted once per
 * connection. Both fast paths lean on node's socket internals (socketHandle.ts): a Node release
 * that changes them turns the paths off without an error, so tests and metrics read these to
 * make that visible.
 */
export const connectionPaths = { sharedReads: 0, streamReads: 0, kernelSends: 0 };
let warnedStreamReads = false;

export interface ConnectionOptions {
  /** The site label for a Host, or undefined when the host is not a site (→ node:http). */
  siteLabel(host: string): string | undefined;
  /** The label of a Host under the sites domain, which never changes (HostRouter.stableLabel). */
  stableLabel(host: string): string | undefined;
  serve(req: RequestHead, reply: EdgeReply, label: string): void | Promise<void>;
  /** Gives the socket to node:http. */
  handOff(socket: Socket): void;
  /**
   * Moves the connection to another thread (edge/workers/) before a site host's request is
   * answered: `bytes` are every unanswered byte, a copy. True when it took the connection's
   * descriptor (a dup of it): this thread then lets go of its own. Absent: never moves.
   */
  transfer?: ((socket: Socket, bytes: Buffer) => boolean) | undefined;
  /**
   * In an edge worker, instead of handOff: gives the connection back to the main thread, which
   * has node:http, Fastify and the rest, for a request this layer does not take (another host,
   * a Range, a body, odd syntax). Same contract as `transfer`.
   */
  handBack?: ((socket: Socket, bytes: Buffer) => boolean) | undefined;
  log: FastifyBaseLogger;
  keepAliveMs: number;
  /** The most a request head may take to arrive in full (slow-header attacks). */
  headersTimeoutMs: number;
  /** Counts each answered request of a site; absent when analytics are off. */
  analytics?: AnalyticsRecorder | undefined;
  /** Counts every answer for the metrics; absent: nothing is counted. */
  requests?: ServingCounts | undefined;
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
  /** The current request's host kind for the metrics (HOST_KIND_INDEX), known once its label is. */
  private hostKind = HOST_KIND_INDEX.site;
  private readonly keepAliveEnd: string;
  private static readonly closeEnd = headEnd(undefined);
  /**
   * The socket's own descriptor when the kernel may send bodies to it directly, else -1. Used only
   * while the socket still has its handle (nothingQueued): destroy() drops the handle in the same
   * tick it closes the descriptor, so a number reused by another connection is never written to.
   */
  private readonly fd: number;
  /** Reads arrive through the shared buffer, not the socket's stream, so none wait unseen there. */
  private readonly sharedReads: boolean;
  /** The connection went to another thread: this socket reads no more and closes. */
  private moved = false;

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
    private readonly gone: (connection: EdgeConnection) => void,
  ) {
    this.keepAliveEnd = headEnd(Math.round(options.keepAliveMs / 1000));
    this.sharedReads = readIntoSharedBuffer(socket, this.onRead);
    if (this.sharedReads) connectionPaths.sharedReads++;
    else {
      socket.on("data", this.onData);
      connectionPaths.streamReads++;
      if (!warnedStreamReads && plainTcpHandle(socket) !== undefined) {
        // A plain TCP socket should always take shared reads: this Node moved an internal.
        warnedStreamReads = true;
        options.log.warn(`Node ${process.version}: the edge reads through socket streams (slower); shared reads are unavailable`);
      }
    }
    socket.on("error", this.onError);
    socket.on("close", this.onClose);
    socket.on("timeout", this.onTimeout);
    this.seenAt = options.clock.now;
    this.fd = kernelSend !== undefined ? plainSocketFd(socket) : -1;
    if (this.fd >= 0) connectionPaths.kernelSends++;
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

  /**
   * Bytes the connection received before this layer owned it (a connection moved from another
   * thread): they are answered before anything read from now on.
   */
  begin(bytes: Buffer): void {
    if (bytes.length > 0) this.onData(bytes);
  }

  /** Draining before shutdown: every answer from now on closes the connection; an idle one waits for its request. */
  drain(): void {
    this.closing = true;
  }

  /** Server shutdown: a busy connection closes after its answer, an idle one after LAST_CALL_MS unless a request came. */
  close(): void {
    this.closing = true;
    if (this.busy) return;
    setTimeout(() => {
      if (!this.busy) this.socket.destroy();
    }, LAST_CALL_MS).unref();
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
    // Moved: not one more byte may be read here, the new owner reads them.
    return !this.moved;
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
      if (this.options.transfer !== undefined && this.moveTo(this.options.transfer)) return;

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
    if (host === this.stableHost) {
      this.hostKind = HOST_KIND_INDEX.site;
      return this.stableLabel;
    }
    if (host !== this.otherHost) {
      const label = this.options.stableLabel(host);
      if (label !== undefined) {
        this.stableHost = host;
        this.stableLabel = label;
        this.hostKind = HOST_KIND_INDEX.site;
        return label;
      }
      this.otherHost = host;
    }
    this.hostKind = HOST_KIND_INDEX.custom_domain;
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
    if (this.options.handBack !== undefined) return this.giveBack(this.options.handBack);
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

  /**
   * Gives the connection to `move` when it can go now: its reads come through the shared buffer
   * (so no byte waits in the socket's stream) and every answer so far has left this thread's
   * queues (the new owner writes next). The caller serves it here when this says false.
   */
  private moveTo(move: (socket: Socket, bytes: Buffer) => boolean): boolean {
    if (!this.sharedReads || !this.nothingQueued()) return false;
    const bytes = this.input === undefined ? EMPTY : Buffer.from(this.input);
    if (!move(this.socket, bytes)) return false;
    this.moved = true;
    this.input = undefined;
    const { socket } = this;
    socket.removeListener("close", this.onClose);
    socket.removeListener("timeout", this.onTimeout);
    this.gone(this);
    // After the read callback under way (if any) has returned false: then nothing reads this
    // descriptor any more, and closing it leaves the connection to the other thread's copy.
    queueMicrotask(() => socket.destroy());
    return true;
  }

  /** In a worker: back to the main thread, once the answers already written have gone out. */
  private giveBack(move: (socket: Socket, bytes: Buffer) => boolean): void {
    if (this.moveTo(move)) return;
    if (!this.sharedReads || handleOf(this.socket) == null) return void this.socket.destroy();
    if (this.nothingQueued()) {
      // It could not be handed over (no descriptor to spare, the main thread closing).
      this.options.log.warn("edge worker could not hand a connection back; closed");
      return void this.socket.destroy();
    }
    // An empty write's callback runs once everything before it is written.
    this.socket.pause();
    this.socket.write(EMPTY, (error) => {
      if (error) return;
      this.socket.resume();
      this.giveBack(move);
    });
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
    this.options.requests?.add(this.hostKind, status, sent);
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

  /** A streamed answer, for the metrics and, when the site is known, analytics. */
  private counted(status: number, headers: OutgoingHttpHeaders, bytes: number): void {
    this.options.requests?.add(this.hostKind, status, bytes);
    if (this.served !== undefined) this.count(status, headers, bytes);
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
      this.counted(status, headers, this.socket.bytesWritten - before);
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
      this.counted(status, headers, this.socket.bytesWritten - before);
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
