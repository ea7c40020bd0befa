// The most a Node process can serve on this machine, as an anchor for bench:edge's figures.
//
// A raw `net` server with every answer built at start: the corpus's files as ready buffers (head
// and body, the head's Date fixed), found by the request target in a Map, one write per request.
// It checks nothing and logs nothing; it has no HTTP semantics beyond what the bench's cases need
// (br when the head mentions it and a .br sibling exists, a fixed 404). Berth's edge does the
// same I/O plus everything a real server must, so Berth / this is how much of Node's reach the
// edge keeps, and this / nginx is how far any Node server could get on the machine.
//
//   ../shared/bench/vs-nginx.sh "exec node --import $PWD/node_modules/tsx/dist/esm/index.mjs $PWD/bench/nodeCeiling.ts 8099" 8099 x
import net from "node:net";
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import path from "node:path";

const port = Number(process.argv[2] ?? 8099);
const root = process.argv[3] ?? "/tmp/bench-site";
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".pdf": "application/pdf",
};
const date = new Date().toUTCString();

function answer(status: string, type: string, body: Buffer, encoding?: string): Buffer {
  const head =
    `HTTP/1.1 ${status}\r\ncontent-type: ${type}\r\n${encoding ? `content-encoding: ${encoding}\r\nvary: Accept-Encoding\r\n` : ""}` +
    `content-length: ${body.length}\r\ncache-control: public, max-age=0, must-revalidate\r\nx-content-type-options: nosniff\r\n` +
    `date: ${date}\r\nconnection: keep-alive\r\nkeep-alive: timeout=5\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

const plain = new Map<string, Buffer>();
const brotli = new Map<string, Buffer>();
function walk(dir: string): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      walk(full);
      continue;
    }
    if (name.endsWith(".br") || name.endsWith(".gz")) continue;
    const url = "/" + path.relative(root, full).split(path.sep).join("/");
    const type = TYPES[path.extname(name)] ?? "application/octet-stream";
    plain.set(url, answer("200 OK", type, readFileSync(full)));
    if (existsSync(`${full}.br`)) brotli.set(url, answer("200 OK", type, readFileSync(`${full}.br`), "br"));
  }
}
walk(root);
const index = plain.get("/index.html");
if (index) plain.set("/", index);
const notFound = answer("404 Not Found", "text/html; charset=utf-8", Buffer.from("<h1>Not found</h1>"));

net
  .createServer((socket) => {
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      // wrk sends one request per write and waits for its answer: one head per chunk.
      const text = chunk.toString("latin1");
      const url = text.slice(text.indexOf(" ") + 1, text.indexOf(" HTTP/"));
      const br = /\r\naccept-encoding:[^\r]*\bbr\b/i.test(text) ? brotli.get(url) : undefined;
      socket.write(br ?? plain.get(url) ?? notFound);
    });
  })
  .listen(port, "127.0.0.1", () => console.log(`node ceiling: ${plain.size} files from ${root} on 127.0.0.1:${port}`));
