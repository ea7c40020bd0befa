// The upload bench's anchor: the least a server can do with an upload. It writes each request's
// body, as it arrives, to a file in the directory it is given, answers 201 once the file is
// closed, and deletes it. No multipart parsing, no unzipping, no database.
// Run as a child process (`tsx bench/sinkServer.ts <dir>`); prints {"port":N} once listening.
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";

const dir = process.argv[2];
if (!dir) throw new Error("usage: sinkServer.ts <directory>");

let count = 0;
const server = http.createServer((req, res) => {
  const file = path.join(dir, `upload-${++count}.bin`);
  pipeline(req, createWriteStream(file))
    .then(() => {
      res.writeHead(201, { "content-type": "application/json" }).end('{"ok":true}');
      return rm(file, { force: true });
    })
    .catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
});

server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
