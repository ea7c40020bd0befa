import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "./env";

describe("loadEnv", () => {
  it("works on a laptop with nothing set", () => {
    const env = loadEnv({}, []);
    expect(env.port).toBe(8080);
    expect(env.appUrl).toBe("http://localhost:8080");
    expect(env.sitesDomain).toBe("localhost");
    expect(env.dataDir).toBe(path.resolve("./data"));
    expect(env.databaseUrl).toBeUndefined();
    expect([...env.roles]).toEqual(["api", "web", "edge", "worker"]);
    expect(env.mailFrom).toBe("Berth <no-reply@localhost>");
  });

  it("derives the app URL from PORT and trims a trailing slash", () => {
    expect(loadEnv({ PORT: "9000" }, []).appUrl).toBe("http://localhost:9000");
    expect(loadEnv({ BERTH_APP_URL: "https://berth.example.com/" }, []).appUrl).toBe("https://berth.example.com");
  });

  it("lists every problem at once", () => {
    let error: unknown;
    try {
      loadEnv(
        {
          PORT: "eighty",
          BERTH_APP_URL: "ftp://x",
          DATABASE_URL: "mysql://x",
          BERTH_SECRET: "short",
          BERTH_CONTACT_EMAIL: "nope",
          BERTH_SITES_DOMAIN: "bad domain",
        },
        ["--roles=api,cache"],
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems.join("\n");
    for (const key of ["PORT", "BERTH_APP_URL", "DATABASE_URL", "BERTH_SECRET", "BERTH_CONTACT_EMAIL", "BERTH_SITES_DOMAIN", 'unknown role "cache"']) {
      expect(problems).toContain(key);
    }
    expect((error as EnvError).message).toMatch(/^Berth cannot start; fix these settings:/);
  });

  it("takes roles from --roles before BERTH_ROLES", () => {
    expect([...loadEnv({ BERTH_ROLES: "edge" }, ["--roles=api,web"]).roles]).toEqual(["api", "web"]);
    expect([...loadEnv({ BERTH_ROLES: "edge" }, []).roles]).toEqual(["edge"]);
  });

  it("treats an empty value as unset", () => {
    expect(loadEnv({ DATABASE_URL: "", BERTH_SMTP_URL: " " }, []).databaseUrl).toBeUndefined();
  });
});
