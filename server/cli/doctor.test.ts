// `berth doctor` against real components: a PGlite database in the data directory with an active
// custom domain (checked through a loopback DNS server), an S3 bucket (s3rver), a mail server
// (smtp-server). A good setup passes; each broken part is a problem that makes the exit code 1.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../db/client";
import { projectRoot } from "../paths";
import { TestDnsServer } from "../test/dnsServer";
import { activeDomain } from "../test/domains";
import { ownerWithSite } from "../test/factories";
import { SmtpReceiver } from "../test/smtpReceiver";
import { getTestServer, TEST_APP_URL } from "../test/support";
import { runDoctorCli } from "./doctor";
import type { CheckResult } from "./doctorChecks";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const SECRET = "test-secret-test-secret-test-secret-0123";
const BUCKET = "berth-doctor";
const NOBODY = 65534;

interface DoctorRun {
  code: number;
  stdout: string;
  stderr: string;
  results: CheckResult[];
}

async function doctor(env: Record<string, string>): Promise<DoctorRun> {
  let stdout = "";
  let stderr = "";
  const io = { env, stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text) };
  const code = await runDoctorCli(["doctor", "--json"], io);
  return { code, stdout, stderr, results: JSON.parse(stdout) as CheckResult[] };
}

/** The doctor as its own process under another account: root may write anywhere, so a read-only directory needs someone else. */
function doctorAs(uid: number, env: Record<string, string>): Promise<DoctorRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [path.join(projectRoot, "node_modules/tsx/dist/cli.mjs"), "server/cli/main.ts", "doctor", "--json"],
      {
        cwd: projectRoot,
        env: { PATH: process.env.PATH ?? "", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", ...env },
        uid,
        gid: uid,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        resolve({ code: code ?? -1, stdout, stderr, results: JSON.parse(stdout) as CheckResult[] });
      } catch {
        reject(new Error(`doctor printed no JSON (exit ${code}): ${stdout}\n${stderr}`));
      }
    });
  });
}

const statusOf = (run: DoctorRun, name: string) => run.results.find((r) => r.name === name)?.status;
const resultOf = (run: DoctorRun, name: string) => run.results.find((r) => r.name === name)!;

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("berth doctor", () => {
  let tmp: string;
  let dataDir: string;
  let s3: S3rver;
  let s3Endpoint: string;
  let smtp: SmtpReceiver;
  let dns: TestDnsServer;
  let env: Record<string, string>;
  let hostname: string;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "berth-doctor-"));
    dataDir = path.join(tmp, "data");
    const setupDb = path.join(tmp, "setup-db");
    cpSync(inject("pgliteTemplateDir"), setupDb, { recursive: true });

    s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: path.join(tmp, "s3") });
    const { port } = await s3.run();
    s3Endpoint = `http://127.0.0.1:${port}`;
    const admin = new S3Client({
      endpoint: s3Endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
    admin.destroy();
    smtp = await SmtpReceiver.start();
    dns = await TestDnsServer.start();

    // An active custom domain in the database, made through the real paths; then the database
    // moves into the data directory (the test server removes its own data directory at the end).
    const database = await openDatabase({ pgliteDir: setupDb });
    const server = await getTestServer("pglite", {
      database: { ...database, destroy: () => database.close() },
      env: { BERTH_DNS_SERVERS: dns.address },
    });
    try {
      const { client, site } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Shop</h1>" }]);
      hostname = "www.doctor.test";
      await activeDomain(server, dns, client, site.id, hostname);
    } finally {
      await server.ctx.domains.settled();
      await server.close();
    }
    mkdirSync(dataDir, { mode: 0o700 });
    renameSync(setupDb, path.join(dataDir, "db"));

    env = {
      BERTH_DATA_DIR: dataDir,
      BERTH_APP_URL: TEST_APP_URL,
      BERTH_SECRET: SECRET,
      BERTH_SMTP_URL: smtp.url,
      BERTH_S3_BUCKET: BUCKET,
      BERTH_S3_ENDPOINT: s3Endpoint,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      BERTH_DNS_SERVERS: dns.address,
    };
  }, 120_000);

  afterAll(async () => {
    await smtp?.close();
    await dns?.close();
    await s3?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("passes a good setup, checking every part", async () => {
    const run = await doctor(env);
    expect(run.code, run.stdout).toBe(0);
    for (const name of ["configuration", "data directory", "database", "blob store", "SMTP", "custom-domain DNS"]) {
      expect(statusOf(run, name), `${name}: ${JSON.stringify(resultOf(run, name))}`).toBe("ok");
    }
    expect(["ok", "warning"]).toContain(statusOf(run, "disk space"));
    expect(resultOf(run, "database").summary).toMatch(/all \d+ migrations applied/);
    expect(resultOf(run, "blob store").summary).toContain(`bucket ${BUCKET}`);
    expect(resultOf(run, "custom-domain DNS").summary).toBe("all 1 active custom domain lead here");
    // The probe went again, and nothing was mailed.
    expect(smtp.received).toEqual([]);
  }, 60_000);

  it("prints one line per check and a verdict, for a person", async () => {
    let stdout = "";
    const code = await runDoctorCli(["doctor"], { env, stdout: (text) => (stdout += text), stderr: () => {} });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}ok {7}SMTP {16}smtp:\/\/127\.0\.0\.1:\d+ accepted a connection and answered EHLO$/m);
    expect(stdout).toMatch(/\n(Everything checked is in order\.|1 warning: see the fixes above\.)\n$/);
  }, 60_000);

  it("finds a mail server that does not answer at its port", async () => {
    const port = await closedPort();
    const run = await doctor({ ...env, BERTH_SMTP_URL: `smtp://berth:hunter2-password@127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    const result = resultOf(run, "SMTP");
    expect(result.status).toBe("problem");
    expect(result.summary).toContain(`127.0.0.1:${port}`);
    expect(result.summary).toContain("ECONNREFUSED");
    expect(result.fix).toMatch(/check the host and port in BERTH_SMTP_URL/);
    // The password stays out of what is printed.
    expect(run.stdout).not.toContain("hunter2-password");
    expect(statusOf(run, "blob store")).toBe("ok");
  }, 60_000);

  it("finds a bucket that does not exist", async () => {
    const run = await doctor({ ...env, BERTH_S3_BUCKET: "no-such-bucket" });
    expect(run.code).toBe(1);
    const result = resultOf(run, "blob store");
    expect(result.status).toBe("problem");
    expect(result.summary).toMatch(/bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+: could not write a probe object: NoSuchBucket/);
    expect(result.fix).toBe("create the bucket no-such-bucket, or correct BERTH_S3_BUCKET (and BERTH_S3_REGION)");
    expect(statusOf(run, "SMTP")).toBe("ok");
  }, 60_000);

  it("finds a data directory Berth cannot write in", async () => {
    const readOnly = path.join(tmp, "read-only");
    mkdirSync(readOnly, { mode: 0o700 });
    const setup = { ...env, BERTH_DATA_DIR: readOnly, BERTH_S3_BUCKET: "", BERTH_S3_ENDPOINT: "", AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "" };
    let run: DoctorRun;
    if (process.getuid?.() === 0) {
      // Its owner, but without write permission: only the missing permission is wrong.
      chownSync(readOnly, NOBODY, NOBODY);
      chmodSync(readOnly, 0o500);
      chmodSync(tmp, 0o711);
      try {
        run = await doctorAs(NOBODY, setup);
      } finally {
        chmodSync(tmp, 0o700);
      }
    } else {
      chmodSync(readOnly, 0o500);
      run = await doctor(setup);
    }
    chmodSync(readOnly, 0o700);
    expect(run.code, run.stderr).toBe(1);
    const result = resultOf(run, "data directory");
    expect(result.status).toBe("problem");
    expect(result.summary).toMatch(/cannot write in it \(EACCES\)$/);
    expect(result.summary).not.toMatch(/belongs to|every account/);
    expect(result.fix).toContain(`chmod u+rwx ${readOnly}`);
    // The files store lives in it too.
    expect(statusOf(run, "blob store")).toBe("problem");
  }, 60_000);

  it("finds a data directory every account may write in", async () => {
    const open = path.join(tmp, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const run = await doctor({ ...env, BERTH_DATA_DIR: open });
    expect(run.code).toBe(1);
    expect(resultOf(run, "data directory")).toMatchObject({ status: "problem", fix: `chmod go-rwx ${open}` });
    expect(resultOf(run, "data directory").summary).toContain("every account on the machine may write in it (mode 0777)");
  }, 60_000);

  it("warns of a custom domain whose DNS no longer leads here, without failing", async () => {
    const before = dns.zone.get(hostname);
    dns.set(hostname, { cname: "somewhere-else.example.net" });
    try {
      const run = await doctor(env);
      expect(run.code).toBe(0);
      const result = resultOf(run, "custom-domain DNS");
      expect(result.status).toBe("warning");
      expect(result.details).toEqual([expect.stringMatching(new RegExp(`^${hostname.replace(/\./g, "\\.")} no longer leads here`))]);
    } finally {
      dns.zone.set(hostname, before!);
    }
  }, 60_000);

  it("skips the database, and says why, while a running Berth holds PGlite", async () => {
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    writeFileSync(path.join(dataDir, "berth.lock"), String(holder.pid));
    try {
      const run = await doctor(env);
      expect(run.code).toBe(0);
      expect(resultOf(run, "database")).toMatchObject({ status: "skipped", fix: "stop Berth to check the database itself" });
      expect(resultOf(run, "database").summary).toContain(`Berth (pid ${holder.pid}) is running`);
      expect(statusOf(run, "custom-domain DNS")).toBe("skipped");
    } finally {
      holder.kill();
      rmSync(path.join(dataDir, "berth.lock"), { force: true });
    }
  }, 60_000);

  it("finds a PostgreSQL server that does not answer, and settings Berth would refuse", async () => {
    const port = await closedPort();
    const unreachable = await doctor({ ...env, DATABASE_URL: `postgres://berth:pw-not-shown@127.0.0.1:${port}/berth` });
    expect(unreachable.code).toBe(1);
    expect(resultOf(unreachable, "database").summary).toMatch(
      new RegExp(`^PostgreSQL at postgres://berth:\\*\\*\\*@127\\.0\\.0\\.1:${port}/berth did not answer`),
    );
    expect(unreachable.stdout).not.toContain("pw-not-shown");

    const refused = await doctor({ ...env, PORT: "eighty", BERTH_METRICS_LISTEN: "0.0.0.0:9464" });
    expect(refused.code).toBe(1);
    expect(resultOf(refused, "configuration").status).toBe("problem");
    expect(resultOf(refused, "configuration").details).toEqual([
      expect.stringMatching(/^PORT: must be a number/),
      expect.stringMatching(/^BERTH_METRICS_LISTEN: 0\.0\.0\.0:9464 is not a loopback address/),
    ]);
    expect(refused.results.map((r) => r.status)).toEqual(["problem", "skipped"]);
  }, 60_000);

  it("says what it takes, and refuses what it does not", async () => {
    let stdout = "";
    let stderr = "";
    const io = { env, stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text) };
    expect(await runDoctorCli(["doctor", "--help"], io)).toBe(0);
    expect(stdout).toContain("Usage: npm run berth -- doctor [--json]");
    expect(await runDoctorCli(["doctor", "--fix"], io)).toBe(2);
    expect(stderr).toContain('doctor does not take "--fix".');
  });
});
