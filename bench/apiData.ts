// Fills a fresh Berth database with a large installation for bench/api.ts, in a few bulk
// statements (generate_series) instead of through the API, which would take hours. The rows are
// what Berth itself would have written: every site has a live, successful deployment whose
// manifest matches the site's files, every referenced blob has its row in `blobs`, every
// subdomain its row in the pool, and the daily analytics roll-ups exist for each site.
import type pg from "pg";

export interface Shape {
  /** All accounts, the measured one included. */
  users: number;
  sites: number;
  /** Sites of the measured user ("heavy"); the rest are spread evenly over the other users. */
  heavySites: number;
  /** Files in each heavy site's `assets/` folder, besides its index.html. */
  heavyFiles: number;
  /** Deployments kept per heavy site (the Free plan keeps 10), each with a full manifest. */
  heavyVersions: number;
  otherFiles: number;
  otherVersions: number;
  /** Days of daily analytics roll-ups per site: the 30-day range and the 30 days before it. */
  analyticsDays: number;
}

export const DEFAULT_SHAPE: Shape = {
  users: 1_000,
  sites: 10_000,
  heavySites: 100,
  heavyFiles: 1_000,
  heavyVersions: 10,
  otherFiles: 89,
  otherVersions: 1,
  analyticsDays: 60,
};

/** The measured site: the heavy user's newest, whose `assets/` folder holds `heavyFiles` files. */
export const MEASURED_FOLDER = "assets";

export interface Populated {
  counts: Record<string, number>;
  steps: Array<{ step: string; ms: number }>;
}

/**
 * Populates the database behind `client` for the existing (signed-up) user `measuredUserId`.
 * `appPort` makes deployment URLs like the server's own ({sub}--v{n}.localhost:{port}).
 */
export async function populate(
  client: pg.Client,
  measuredUserId: string,
  appPort: number,
  shape: Shape = DEFAULT_SHAPE,
  onStep: (step: string, ms: number) => void = () => undefined,
): Promise<Populated> {
  const steps: Populated["steps"] = [];
  const step = async (name: string, text: string, values: unknown[] = []) => {
    const started = performance.now();
    await client.query(text, values);
    steps.push({ step: name, ms: performance.now() - started });
    onStep(name, performance.now() - started);
  };
  const others = shape.users - 1;

  // Site n belongs to the measured user when n < heavySites. Newer sites have lower n, so the
  // measured user's sites are among the newest, and site 0 (the measured one) is the newest.
  await step(
    "plan of the sites (temp table)",
    `create temp table bench_site as
     select n, md5('bench-site:' || n)::uuid as id, 'bench-' || lpad(n::text, 5, '0') as subdomain,
       case when n < $1::int then $2::text else 'bench-user-' || lpad(((n - $1::int) % $3::int + 1)::text, 4, '0') end as user_id,
       case when n < $1::int then $4::int else $5::int end as files,
       case when n < $1::int then $6::int else $7::int end as versions,
       now() - make_interval(days => $6::int + 1 + n % 365, secs => n) as created_at
     from generate_series(0, $8::int - 1) as n`,
    [shape.heavySites, measuredUserId, others, shape.heavyFiles, shape.otherFiles, shape.heavyVersions, shape.otherVersions, shape.sites],
  );
  // Every file in assets/: four kinds in turn, 1–7 KiB, content unique to the site and path and
  // unchanged across versions (only index.html changes with each deploy).
  await step(
    "plan of the files (temp table)",
    `create temp table bench_asset as
     select s.n, s.id as site_id, j,
       'file-' || lpad(j::text, 4, '0') || '.' || (array['css', 'js', 'png', 'html'])[j % 4 + 1] as filename,
       (array['text/css', 'text/javascript', 'image/png', 'text/html'])[j % 4 + 1] as file_type,
       1024 + abs(hashint4(s.n * 10007 + j)::bigint) % 6144 as size,
       encode(sha256(convert_to('bench:' || s.n || ':' || j, 'UTF8')), 'hex') as sha256
     from bench_site s cross join lateral generate_series(1, s.files) as j`,
  );
  await step("sizes per site (temp table)", `create temp table bench_site_size as select n, sum(size)::bigint as size from bench_asset group by n`);

  await step(
    "users",
    `insert into users (id, name, email, email_verified, created_at, updated_at)
     select 'bench-user-' || lpad(u::text, 4, '0'), 'Bench user ' || u, 'bench-user-' || u || '@example.com', true,
       now() - make_interval(days => 400 + u % 100), now()
     from generate_series(1, $1::int) as u`,
    [others],
  );
  await step("profiles", `insert into profiles (id, full_name) select id, name from users where id like 'bench-user-%'`);
  await step(
    "sites",
    `insert into sites (id, name, user_id, status, subdomain, created_at, updated_at)
     select id, 'Site ' || n, user_id, 'active', subdomain, created_at, created_at + make_interval(days => versions - 1) from bench_site`,
  );
  await step(
    "available_subdomains",
    `insert into available_subdomains (subdomain, is_assigned, assigned_site_id, created_at, reserved_by, reserved_at)
     select subdomain, true, id, created_at, user_id, created_at from bench_site`,
  );
  await step(
    "deployments",
    `insert into deployments (id, site_id, version, status, deployment_url, created_at, file_count, total_size, note, published_at)
     select md5('bench-deployment:' || s.n || ':' || v)::uuid, s.id, v, 'success',
       'http://' || s.subdomain || '--v' || v || '.localhost:' || $1::text || '/',
       s.created_at + make_interval(days => v - 1), s.files + 1, z.size + 2000 + v, 'Uploaded site.zip',
       s.created_at + make_interval(days => v - 1, secs => 2)
     from bench_site s join bench_site_size z using (n) cross join lateral generate_series(1, s.versions) as v`,
    [appPort],
  );
  await step(
    "sites.live_deployment_id",
    `update sites set live_deployment_id = md5('bench-deployment:' || b.n || ':' || b.versions)::uuid from bench_site b where b.id = sites.id`,
  );
  // The working tree: a folder row, index.html (as of the live version) and the assets.
  await step(
    "site_files",
    `insert into site_files (site_id, filename, file_path, file_type, file_size, is_folder, parent_folder, updated_at, sha256)
     select id, $1::text, $1::text, null, 0, true, null, created_at, null from bench_site
     union all
     select id, 'index.html', 'index.html', 'text/html', 2000 + versions, false, null, created_at + make_interval(days => versions - 1),
       encode(sha256(convert_to('bench:' || n || ':index:' || versions, 'UTF8')), 'hex') from bench_site
     union all
     select site_id, filename, $1::text || '/' || filename, file_type, size, false, $1::text, now() - make_interval(days => 30), sha256 from bench_asset`,
    [MEASURED_FOLDER],
  );
  // Each deployment's manifest: what snapshotSiteFiles copies from the working tree at publish.
  await step(
    "deployment_files",
    `insert into deployment_files (deployment_id, path, sha256, size, content_type)
     select md5('bench-deployment:' || s.n || ':' || v)::uuid, 'index.html',
       encode(sha256(convert_to('bench:' || s.n || ':index:' || v, 'UTF8')), 'hex'), 2000 + v, 'text/html'
     from bench_site s cross join lateral generate_series(1, s.versions) as v
     union all
     select md5('bench-deployment:' || s.n || ':' || v)::uuid, $1::text || '/' || a.filename, a.sha256, a.size, a.file_type
     from bench_site s cross join lateral generate_series(1, s.versions) as v join bench_asset a on a.n = s.n`,
    [MEASURED_FOLDER],
  );
  await step("blobs", `insert into blobs (sha256, size) select sha256, min(size) from deployment_files group by sha256`);
  // Traffic: more for the heavy user's sites. Views, visitors, requests and bytes keep the ratios
  // of a small static site.
  await step(
    "analytics_daily",
    `insert into analytics_daily (site_id, day, views, visitors, requests, bot_requests, bandwidth)
     select s.id, date_trunc('day', now(), 'UTC') - make_interval(days => d), v.views, v.views * 6 / 10, v.views * 4, v.views / 5, v.views::bigint * 4 * 9000
     from bench_site s cross join generate_series(0, $1::int - 1) as d
     cross join lateral (select (abs(hashint4(s.n * 1009 + d)::bigint) % case when s.n < $2::int then 2000 else 100 end) + 1 as views) as v`,
    [shape.analyticsDays, shape.heavySites],
  );
  // The ranked lists for the heavy user's sites: 20 pages, 10 referrers, 3 statuses, 5 missing
  // paths and 10 countries a day (the roll-up keeps up to 100 of each).
  await step(
    "analytics_daily_top",
    `insert into analytics_daily_top (site_id, dimension, key, count, day)
     select s.id, k.dimension, k.key, (abs(hashint4(s.n * 7919 + d * 31 + k.i)::bigint) % 500) + 1, date_trunc('day', now(), 'UTC') - make_interval(days => d)
     from bench_site s cross join generate_series(0, $1::int - 1) as d
     cross join (
       select 'page' as dimension, case when i = 1 then '/' else '/assets/file-' || lpad((i * 4 - 1)::text, 4, '0') || '.html' end as key, i from generate_series(1, 20) as i
       union all select 'referrer', 'ref' || i || '.example.com', 100 + i from generate_series(1, 10) as i
       union all select 'status', code, 200 + i::int from unnest(array['200', '304', '404']) with ordinality as t(code, i)
       union all select 'not_found', '/missing-' || i, 300 + i from generate_series(1, 5) as i
       union all select 'country', (array['US', 'DE', 'FR', 'GB', 'NL', 'SE', 'JP', 'BR', 'IN', 'CA'])[i], 400 + i from generate_series(1, 10) as i
     ) as k
     where s.n < $2::int`,
    [shape.analyticsDays, shape.heavySites],
  );
  await step("drop temp tables", `drop table bench_site, bench_asset, bench_site_size`);
  // Planner statistics, as autovacuum would have gathered them on a server that grew this large.
  await step("vacuum analyze", `vacuum analyze`);

  const counts: Record<string, number> = {};
  for (const table of ["users", "sites", "deployments", "site_files", "deployment_files", "blobs", "analytics_daily", "analytics_daily_top"]) {
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
    counts[table] = Number(rows[0]!.n);
  }
  return { counts, steps };
}
