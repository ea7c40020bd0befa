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
    for (const key of [
      "PORT",
      "BERTH_APP_URL",
      "DATABASE_URL",
      "BERTH_SECRET",
      "BERTH_CONTACT_EMAIL",
      "BERTH_SITES_DOMAIN",
      'unknown role "cache"',
    ]) {
      expect(problems).toContain(key);
    }
    expect((error as EnvError).message).toMatch(/^Berth cannot start; fix these settings:/);
  });

  it("takes roles from --roles before BERTH_ROLES", () => {
    expect([...loadEnv({ BERTH_ROLES: "edge" }, ["--roles=api,web"]).roles]).toEqual(["api", "web"]);
    expect([...loadEnv({ BERTH_ROLES: "edge" }, []).roles]).toEqual(["edge"]);
  });

  it("takes the edge's memory budget in megabytes, at least 8", () => {
    expect(loadEnv({}, []).edgeCacheBytes).toBe(256 * 1024 * 1024);
    expect(loadEnv({ BERTH_EDGE_CACHE_MB: "8" }, []).edgeCacheBytes).toBe(8 * 1024 * 1024);
    expect(() => loadEnv({ BERTH_EDGE_CACHE_MB: "0" }, [])).toThrow(/BERTH_EDGE_CACHE_MB.*at least 8/);
  });

  it("sends through the native addon unless BERTH_NATIVE_SEND is false", () => {
    expect(loadEnv({}, []).nativeSend).toBe(true);
    expect(loadEnv({ BERTH_NATIVE_SEND: "0" }, []).nativeSend).toBe(false);
    expect(loadEnv({ BERTH_NATIVE_SEND: "false" }, []).nativeSend).toBe(false);
    expect(() => loadEnv({ BERTH_NATIVE_SEND: "no" }, [])).toThrow(/BERTH_NATIVE_SEND: must be true or false/);
  });

  it("treats an empty value as unset", () => {
    expect(loadEnv({ DATABASE_URL: "", BERTH_SMTP_URL: " " }, []).databaseUrl).toBeUndefined();
  });
});

describe("loadEnv: blob storage in a bucket", () => {
  it("keeps blobs in the data directory unless a bucket is set", () => {
    expect(loadEnv({}, []).s3).toBeUndefined();
    expect(loadEnv({ BERTH_S3_BUCKET: " ", AWS_ACCESS_KEY_ID: "AKIA" }, []).s3).toBeUndefined();
  });

  it("defaults to AWS in us-east-1, virtual-hosted style, at the bucket's root, with the SDK's credentials", () => {
    expect(loadEnv({ BERTH_S3_BUCKET: "berth-blobs" }, []).s3).toEqual({
      bucket: "berth-blobs",
      endpoint: undefined,
      region: "us-east-1",
      forcePathStyle: false,
      prefix: "",
      accessKeyId: undefined,
      secretAccessKey: undefined,
      sessionToken: undefined,
    });
  });

  it("uses path-style addressing with an endpoint unless told otherwise", () => {
    const s3 = loadEnv(
      {
        BERTH_S3_BUCKET: "blobs",
        BERTH_S3_ENDPOINT: "http://127.0.0.1:9000/",
        BERTH_S3_REGION: "auto",
        BERTH_S3_PREFIX: "berth/prod",
        AWS_ACCESS_KEY_ID: "minio",
        AWS_SECRET_ACCESS_KEY: "minio-secret",
      },
      [],
    ).s3;
    expect(s3).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      region: "auto",
      forcePathStyle: true,
      prefix: "berth/prod/",
      accessKeyId: "minio",
      secretAccessKey: "minio-secret",
    });
    const env = { BERTH_S3_BUCKET: "blobs", BERTH_S3_ENDPOINT: "https://s3.example.com", BERTH_S3_FORCE_PATH_STYLE: "false" };
    expect(loadEnv(env, []).s3?.forcePathStyle).toBe(false);
    expect(loadEnv({ BERTH_S3_BUCKET: "blobs", BERTH_S3_FORCE_PATH_STYLE: "1" }, []).s3?.forcePathStyle).toBe(true);
  });

  it("lists S3 settings given without a bucket, and bad values", () => {
    const problemsOf = (source: Record<string, string>) => {
      try {
        loadEnv(source, []);
      } catch (error) {
        return (error as EnvError).problems;
      }
      return [];
    };
    expect(problemsOf({ BERTH_S3_ENDPOINT: "http://127.0.0.1:9000" })).toEqual(["BERTH_S3_ENDPOINT: has no effect without BERTH_S3_BUCKET"]);
    expect(problemsOf({ BERTH_S3_PREFIX: "berth/", BERTH_S3_REGION: "eu-west-1" })).toHaveLength(2);
    const problems = problemsOf({
      BERTH_S3_BUCKET: "no spaces allowed",
      BERTH_S3_ENDPOINT: "minio:9000",
      BERTH_S3_FORCE_PATH_STYLE: "yes",
      BERTH_S3_PREFIX: "/../etc",
    }).join("\n");
    for (const key of ["BERTH_S3_BUCKET", "BERTH_S3_ENDPOINT", "BERTH_S3_FORCE_PATH_STYLE", "BERTH_S3_PREFIX"]) {
      expect(problems).toContain(key);
    }
    expect(problemsOf({ BERTH_S3_BUCKET: "blobs", BERTH_S3_PREFIX: "a/../b" }).join("\n")).toContain("BERTH_S3_PREFIX");
    expect(problemsOf({ BERTH_S3_BUCKET: "blobs", AWS_ACCESS_KEY_ID: "AKIA" }).join("\n")).toContain("AWS_SECRET_ACCESS_KEY");
  });
});

describe("loadEnv: custom-domain DNS", () => {
  it("uses the system resolver and no fixed addresses by default", () => {
    const env = loadEnv({}, []);
    expect(env.dnsServers).toBeUndefined();
    expect(env.publicIps).toEqual([]);
  });

  it("takes DNS servers with or without ports, IPv6 in brackets", () => {
    expect(loadEnv({ BERTH_DNS_SERVERS: "1.1.1.1, 127.0.0.1:5353,[::1]:53,2606:4700::1111" }, []).dnsServers).toEqual([
      "1.1.1.1",
      "127.0.0.1:5353",
      "[::1]:53",
      "2606:4700::1111",
    ]);
  });

  it("takes public addresses in canonical form, once each", () => {
    expect(loadEnv({ BERTH_PUBLIC_IPS: "192.0.2.1, 2001:DB8:0:0:0:0:0:1, 192.0.2.1" }, []).publicIps).toEqual(["192.0.2.1", "2001:db8::1"]);
  });

  it("names every bad entry", () => {
    let error: unknown;
    try {
      loadEnv({ BERTH_DNS_SERVERS: "dns.example.com,1.1.1.1:99999", BERTH_PUBLIC_IPS: "berth.example.com" }, []);
    } catch (e) {
      error = e;
    }
    const problems = (error as EnvError).problems.join("\n");
    expect(problems).toContain('BERTH_DNS_SERVERS: "dns.example.com"');
    expect(problems).toContain('BERTH_DNS_SERVERS: "1.1.1.1:99999"');
    expect(problems).toContain('BERTH_PUBLIC_IPS: "berth.example.com"');
  });
});

describe("loadEnv: the dashboard and the sites on registrable domains of their own", () => {
  /** The problems loadEnv lists for `source`, or [] when it starts. */
  function problemsOf(source: Record<string, string>): string[] {
    try {
      loadEnv(source, []);
      return [];
    } catch (error) {
      if (error instanceof EnvError) return error.problems;
      throw error;
    }
  }

  it.each<[string, string, string]>([
    ["https://berth.example.com", "sites.example.com", "example.com"],
    ["https://berth.example.com", "example.com", "example.com"],
    ["https://example-sites.net", "example-sites.net", "example-sites.net"],
    ["https://berth.sites.example.com", "sites.example.com", "example.com"],
    // Two-label public suffixes, by the Public Suffix List rather than by counting dots.
    ["https://berth.example.co.uk", "sites.example.co.uk", "example.co.uk"],
    // Suffixes off the list count as suffixes (the browsers' "*" rule), like .test here.
    ["http://berth.example.test:8080", "sites.example.test", "example.test"],
    // Below one site's own host: that site could set cookies for the dashboard.
    ["http://app.abcde.localhost:8080", "localhost", "abcde.localhost"],
    ["https://app.team.github.io", "github.io", "team.github.io"],
  ])("refuses the dashboard at %s with the sites under %s (both in %s), saying why and how to fix it", (appUrl, sitesDomain, shared) => {
    const problems = problemsOf({ BERTH_APP_URL: appUrl, BERTH_SITES_DOMAIN: sitesDomain });
    expect(problems).toHaveLength(1);
    const [problem] = problems;
    expect(problem).toMatch(/^BERTH_APP_URL, BERTH_SITES_DOMAIN: /);
    expect(problem).toContain(`(${new URL(appUrl).hostname}) and the sites (*.${sitesDomain}) share the registrable domain ${shared},`);
    expect(problem).toContain("any hosted page could set cookies the browser sends to the dashboard");
    expect(problem).toContain("Serve the sites from a registrable domain of their own");
    expect(problem).toContain("BERTH_ALLOW_SHARED_DOMAIN=true for development only");
  });

  it.each<[string | undefined, string | undefined]>([
    // The default: a site's registrable domain is abcde.localhost itself, and browsers refuse
    // cookies for Domain=localhost.
    [undefined, undefined],
    ["http://localhost:9000", "localhost"],
    ["http://berth.localhost:8080", "localhost"],
    ["https://berth.example.com", "example-sites.net"],
    ["https://berth.example.co.uk", "sites.other.co.uk"],
    // IP addresses have no registrable domain: their cookies are host-only.
    ["http://127.0.0.1:8080", "localhost"],
    ["http://[::1]:8080", "localhost"],
    ["http://192.0.2.10:8080", "sites.example.com"],
    // Each github.io name is its own registrable domain (the list's private section, which browsers use).
    ["https://berth.github.io", "github.io"],
  ])("starts with the dashboard at %s and the sites under %s", (appUrl, sitesDomain) => {
    const source: Record<string, string> = {};
    if (appUrl) source.BERTH_APP_URL = appUrl;
    if (sitesDomain) source.BERTH_SITES_DOMAIN = sitesDomain;
    expect(problemsOf(source)).toEqual([]);
  });

  it("starts anyway with BERTH_ALLOW_SHARED_DOMAIN=true, for development", () => {
    const env = loadEnv(
      { BERTH_APP_URL: "https://berth.example.com", BERTH_SITES_DOMAIN: "sites.example.com", BERTH_ALLOW_SHARED_DOMAIN: "true" },
      [],
    );
    expect(env.sitesDomain).toBe("sites.example.com");
    expect(
      problemsOf({ BERTH_APP_URL: "https://berth.example.com", BERTH_SITES_DOMAIN: "sites.example.com", BERTH_ALLOW_SHARED_DOMAIN: "false" }),
    ).toHaveLength(1);
    expect(problemsOf({ BERTH_ALLOW_SHARED_DOMAIN: "yes" })).toEqual(['BERTH_ALLOW_SHARED_DOMAIN: must be true or false (got "yes")']);
  });

  it("lists the shared domain with every other problem", () => {
    const problems = problemsOf({
      BERTH_APP_URL: "https://berth.example.com",
      BERTH_SITES_DOMAIN: "sites.example.com",
      BERTH_SECRET: "short",
      BERTH_ROLES: "cache",
    });
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toContain("BERTH_SECRET");
    expect(problems.join("\n")).toContain('unknown role "cache"');
    expect(problems.join("\n")).toContain("share the registrable domain example.com");
  });
});

describe("loadEnv: caps per account", () => {
  it("caps sites, custom domains, share links, API tokens and webhooks by default", () => {
    expect(loadEnv({}, []).caps).toEqual({
      sitesPerAccount: 1000,
      customDomainsPerAccount: 100,
      shareLinksPerSite: 100,
      apiTokensPerAccount: 50,
      webhooksPerAccount: 20,
    });
  });

  it("takes the operator's values", () => {
    const env = loadEnv(
      {
        BERTH_MAX_SITES_PER_ACCOUNT: "5",
        BERTH_MAX_DOMAINS_PER_ACCOUNT: "2",
        BERTH_MAX_SHARE_LINKS_PER_SITE: "3",
        BERTH_MAX_API_TOKENS_PER_ACCOUNT: "4",
        BERTH_MAX_WEBHOOKS_PER_ACCOUNT: "6",
      },
      [],
    );
    expect(env.caps).toEqual({ sitesPerAccount: 5, customDomainsPerAccount: 2, shareLinksPerSite: 3, apiTokensPerAccount: 4, webhooksPerAccount: 6 });
  });

  it("refuses webhooks to private addresses unless BERTH_WEBHOOK_ALLOW_PRIVATE is true", () => {
    expect(loadEnv({}, []).webhookAllowPrivate).toBe(false);
    expect(loadEnv({ BERTH_WEBHOOK_ALLOW_PRIVATE: "true" }, []).webhookAllowPrivate).toBe(true);
    expect(() => loadEnv({ BERTH_WEBHOOK_ALLOW_PRIVATE: "yes" }, [])).toThrow(/BERTH_WEBHOOK_ALLOW_PRIVATE: must be true or false/);
  });

  it("names every bad cap", () => {
    let error: unknown;
    try {
      loadEnv({ BERTH_MAX_SITES_PER_ACCOUNT: "0", BERTH_MAX_DOMAINS_PER_ACCOUNT: "many", BERTH_MAX_SHARE_LINKS_PER_SITE: "1.5" }, []);
    } catch (e) {
      error = e;
    }
    const problems = (error as EnvError).problems.join("\n");
    expect(problems).toContain('BERTH_MAX_SITES_PER_ACCOUNT: must be 1 or more (got "0")');
    expect(problems).toContain('BERTH_MAX_DOMAINS_PER_ACCOUNT: must be a number (got "many")');
    expect(problems).toContain('BERTH_MAX_SHARE_LINKS_PER_SITE: must be a whole number (got "1.5")');
  });
});

describe("loadEnv: slow clients", () => {
  it("times out a stalled body after 30 s and caps connections per address at 256 by default", () => {
    const env = loadEnv({}, []);
    expect(env.bodyTimeoutMs).toBe(30_000);
    expect(env.maxConnectionsPerAddress).toBe(256);
  });

  it("takes the operator's values; 0 connections means no cap", () => {
    const env = loadEnv({ BERTH_BODY_TIMEOUT_SECONDS: "90", BERTH_MAX_CONNECTIONS_PER_IP: "0" }, []);
    expect(env.bodyTimeoutMs).toBe(90_000);
    expect(env.maxConnectionsPerAddress).toBe(0);
  });

  it("counts no connections per address behind a trusted proxy, which is every connection's peer", () => {
    expect(loadEnv({ BERTH_TRUST_PROXY: "true", BERTH_MAX_CONNECTIONS_PER_IP: "10" }, []).maxConnectionsPerAddress).toBe(0);
  });

  it("names every bad value", () => {
    let error: unknown;
    try {
      loadEnv({ BERTH_BODY_TIMEOUT_SECONDS: "0", BERTH_MAX_CONNECTIONS_PER_IP: "-1" }, []);
    } catch (e) {
      error = e;
    }
    const problems = (error as EnvError).problems.join("\n");
    expect(problems).toContain('BERTH_BODY_TIMEOUT_SECONDS: must be 1 or more (got "0")');
    expect(problems).toContain('BERTH_MAX_CONNECTIONS_PER_IP: must be 0 or more (got "-1")');
  });
});

describe("loadEnv: metrics", () => {
  const problemsOf = (source: Record<string, string>): string => {
    try {
      loadEnv(source, []);
    } catch (error) {
      return (error as EnvError).problems.join("\n");
    }
    return "";
  };

  it("serves no metrics by default", () => {
    expect(loadEnv({}, []).metrics).toEqual({ token: undefined, listen: undefined });
  });

  it("takes a loopback listener without a token, in any spelling of loopback", () => {
    expect(loadEnv({ BERTH_METRICS_LISTEN: "127.0.0.1:9464" }, []).metrics.listen).toEqual({ host: "127.0.0.1", port: 9464, loopback: true });
    expect(loadEnv({ BERTH_METRICS_LISTEN: "[::1]:9464" }, []).metrics.listen).toEqual({ host: "::1", port: 9464, loopback: true });
    expect(loadEnv({ BERTH_METRICS_LISTEN: "127.8.9.10:1" }, []).metrics.listen?.loopback).toBe(true);
    expect(loadEnv({ BERTH_METRICS_LISTEN: "localhost:9464" }, []).metrics.listen?.loopback).toBe(true);
    expect(loadEnv({ BERTH_METRICS_LISTEN: "[0:0:0:0:0:0:0:1]:9464" }, []).metrics.listen?.loopback).toBe(true);
  });

  it("refuses any other address unless the token is set, and says why", () => {
    for (const listen of ["0.0.0.0:9464", "10.0.0.5:9464", "[::]:9464", "[2001:db8::1]:9464", "128.0.0.1:9464"]) {
      expect(problemsOf({ BERTH_METRICS_LISTEN: listen }), listen).toMatch(
        new RegExp(`BERTH_METRICS_LISTEN: ${listen.replace(/[.[\]]/g, "\\$&")} is not a loopback address.*set BERTH_METRICS_TOKEN too`),
      );
    }
    const env = loadEnv({ BERTH_METRICS_LISTEN: "0.0.0.0:9464", BERTH_METRICS_TOKEN: "a-token-of-16-chars" }, []);
    expect(env.metrics).toEqual({ token: "a-token-of-16-chars", listen: { host: "0.0.0.0", port: 9464, loopback: false } });
  });

  it("names a listen address it cannot read, and a short token", () => {
    for (const listen of ["9464", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "metrics.internal:9464", "::1:9464"]) {
      expect(problemsOf({ BERTH_METRICS_LISTEN: listen }), listen).toContain(`BERTH_METRICS_LISTEN: "${listen}" is not an address and port`);
    }
    expect(problemsOf({ BERTH_METRICS_TOKEN: "short" })).toContain("BERTH_METRICS_TOKEN: must be at least 16 characters");
  });
});
