// Reads into the one shared buffer, over real loopback sockets: what the edge's connections rely
// on (the bytes, pause and resume, the end of input, and copies once a socket is handed on).
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { socketPair, type SocketPair } from "../../test/socketPair";
import { kept, readIntoSharedBuffer, readIntoStream } from "./sharedReads";

interface Read {
  text: string;
  buffer: Buffer;
}

/** Installs shared reads on a pair's accepted end; `next()` waits for the next read. */
function reader(pair: SocketPair): { reads: Read[]; next(): Promise<Read> } {
  const reads: Read[] = [];
  let wake: (() => void) | undefined;
  const installed = readIntoSharedBuffer(pair.server, (length, buffer) => {
    reads.push({ text: buffer.toString("latin1", 0, length), buffer });
    wake?.();
    return true;
  });
  if (!installed) throw new Error("shared reads could not be set up on an accepted TCP socket");
  return {
    reads,
    async next() {
      const seen = reads.length;
      while (reads.length === seen) await new Promise<void>((resolve) => (wake = resolve));
      return reads[seen]!;
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("reads into a shared buffer", () => {
  const pairs: SocketPair[] = [];
  const pair = async () => {
    const made = await socketPair();
    pairs.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of pairs.splice(0)) made.close();
  });

  it("gives every socket's reads to its callback, in the same buffer, and nothing to the stream", async () => {
    const [first, second] = [await pair(), await pair()];
    const [one, two] = [reader(first), reader(second)];
    first.client.write("GET /one");
    expect((await one.next()).text).toBe("GET /one");
    second.client.write("GET /two");
    const read = await two.next();
    expect(read.text).toBe("GET /two");
    expect(read.buffer).toBe(one.reads[0]!.buffer);
    expect(first.server.readableLength).toBe(0);
  });

  it("stops reading on pause() and starts again on resume()", async () => {
    const made = await pair();
    const reads = reader(made);
    made.server.pause();
    made.client.write("held");
    await pause(50);
    expect(reads.reads).toHaveLength(0);
    made.server.resume();
    expect((await reads.next()).text).toBe("held");
  });

  it("still ends the stream when the peer ends", async () => {
    const made = await pair();
    reader(made);
    const ended = new Promise((resolve) => made.server.once("end", resolve));
    made.client.end();
    await ended;
  });

  it("hands later reads to the socket's stream as copies that the next read cannot overwrite", async () => {
    const [handed, other] = [await pair(), await pair()];
    reader(handed);
    const otherReads = reader(other);
    readIntoStream(handed.server);
    const chunks: Buffer[] = [];
    const got = new Promise((resolve) => handed.server.once("data", resolve));
    handed.server.on("data", (chunk: Buffer) => chunks.push(chunk));
    handed.client.write("POST body kept for later");
    await got;
    other.client.write("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    await otherReads.next();
    expect(Buffer.concat(chunks).toString()).toBe("POST body kept for later");
  });

  it("copies kept bytes only when they are in the shared buffer", async () => {
    const made = await pair();
    const reads = reader(made);
    made.client.write("abc");
    const read = await reads.next();
    const inShared = read.buffer.subarray(0, 3);
    const copy = kept(inShared);
    expect(copy).not.toBe(inShared);
    expect(copy.buffer).not.toBe(read.buffer.buffer);
    expect(copy.toString()).toBe("abc");
    const own = Buffer.from("own");
    expect(kept(own)).toBe(own);
  });

  it("declines a socket without a TCP handle", () => {
    expect(readIntoSharedBuffer(new net.Socket(), () => true)).toBe(false);
  });
});
