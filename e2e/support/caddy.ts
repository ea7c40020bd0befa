// Debian's Caddy in front of a Berth process, with on-demand certificates from Caddy's internal
// CA. Each Caddy gets its own temporary HOME and XDG directories (its CA, certificates and
// autosaved config live there), its admin API off, and free high ports, so it never touches the
// machine's state or a system Caddy.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { PeerCertificate, TLSSocket } from "node:tls";
import { freePort } from "./berth";

/** The caddy binary on PATH, or undefined when Caddy is not installed. */
export function findCaddy(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v caddy"], { encoding: "utf8" });
  const binary = found.stdout.trim();
  return found.status === 0 && binary ? binary : undefined;
}

export interface CaddyOptions {
  /** The URL Caddy asks before issuing a certificate: `…?domain=<name>` is appended. */
  askUrl: string;
  /** host:port of the Berth process Caddy forwards every request to. */
  upstream: string;
}

export interface Caddy {
  httpsPort: number;
  /** PEM of Caddy's internal root CA, the one certificate a client must trust. */
  rootCa: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The Caddyfile under test: one catch-all HTTPS site whose certificates are issued during the
 * handshake, for a name the ask endpoint approves, by Caddy's internal CA instead of an ACME CA.
 */
export function caddyfile(options: CaddyOptions & { httpPort: number; httpsPort: number }): string {
  return `{
	admin off
	default_bind 127.0.0.1
	skip_install_trust
	http_port ${options.httpPort}
	https_port ${options.httpsPort}
	on_demand_tls {
		ask ${options.askUrl}
	}
}

https:// {
	tls internal {
		on_demand
	}
	reverse_proxy ${options.upstream}
}
`;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

export async function startCaddy(binary: string, options: CaddyOptions): Promise<Caddy> {
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const home = mkdtempSync(path.join(os.tmpdir(), "berth-caddy-"));
  const dataHome = path.join(home, "data");
  const config = path.join(home, "Caddyfile");
  writeFileSync(config, caddyfile({ ...options, httpPort, httpsPort }));

  let output = "";
  const child = spawn(binary, ["run", "--config", config, "--adapter", "caddyfile"], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: dataHome, XDG_CONFIG_HOME: path.join(home, "config") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = exitOf(child);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(home, { recursive: true, force: true });
  };

  // The internal CA writes its root when the PKI app starts, before the listeners open.
  const rootPath = path.join(dataHome, "caddy/pki/authorities/local/root.crt");
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await Promise.race([exited.then(() => "exited"), new Promise((r) => setTimeout(r, 100, "running"))]);
    if (state === "exited") {
      await stop();
      throw new Error(`Caddy exited during startup:\n${output}`);
    }
    if (existsSync(rootPath) && (await listening(httpsPort))) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Caddy did not start listening on ${httpsPort}:\n${output}`);
    }
  }
  return { httpsPort, rootCa: readFileSync(rootPath, "utf8"), output: () => output, stop };
}

export interface HttpsAnswer {
  status: number;
  body: string;
  certificate: PeerCertificate;
}

/**
 * GET https://{servername}{pathname} sent to 127.0.0.1:{port}, as a browser whose DNS points the
 * name there would: SNI and Host carry the name, and the certificate must chain to `ca` and name
 * the host. Rejects when the TLS handshake fails.
 */
export function httpsGet(port: number, servername: string, ca: string, pathname = "/"): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: "127.0.0.1", port, path: pathname, servername, headers: { host: servername }, ca, agent: false, timeout: 15_000 },
      (res) => {
        const certificate = (res.socket as TLSSocket).getPeerCertificate();
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, certificate }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}
