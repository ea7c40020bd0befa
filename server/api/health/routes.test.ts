import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";

describe.each(DRIVERS)("GET /api/health (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it("answers ok once migrations have run", async () => {
    const response = await server.client().get("/api/health");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("answers 503 when the database is gone", async () => {
    await server.database.close();
    const response = await server.client().get("/api/health");
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "unavailable" });
  });

  // Last: a server does not stop draining.
  it("answers 503 draining from the moment the server drains, so a balancer stops sending requests", async () => {
    server.ctx.lifecycle.drain();
    const response = await server.client().get("/api/health");
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "draining" });
  });
});
