CREATE TABLE "user_blobs" (
	"user_id" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"refs" integer NOT NULL,
	CONSTRAINT "user_blobs_user_id_sha256_pk" PRIMARY KEY("user_id","sha256")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "storage_used" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_blobs" ADD CONSTRAINT "user_blobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The quota's figure kept exact in the transaction that changes it. user_blobs counts, per user
-- and blob, the site_files rows (files, not folders) and deployment_files rows of the user's sites
-- that refer to the blob; users.storage_used is the sum of the sizes of those with refs > 0.
-- Every trigger below ends here with its changes as parallel arrays (owner, blob, size, +/- rows).
-- It takes the owners' users rows first, in id order: a user's user_blobs rows are then written by
-- one transaction at a time (two commits of the same new blob cannot both count it), and two
-- transactions of one user cannot deadlock on each other's user_blobs rows.
CREATE FUNCTION "user_blobs_apply"(p_users text[], p_shas text[], p_sizes bigint[], p_refs bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(p_users), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM users WHERE id = ANY (p_users) ORDER BY id FOR NO KEY UPDATE;
  WITH d AS (
    SELECT t.user_id, t.sha256, max(t.size) AS size, sum(t.n)::bigint AS n
      FROM unnest(p_users, p_shas, p_sizes, p_refs) AS t(user_id, sha256, size, n)
      GROUP BY t.user_id, t.sha256
      HAVING sum(t.n) <> 0
  ), j AS (
    SELECT d.user_id, d.sha256, coalesce(b.size, d.size) AS size,
           coalesce(b.refs, 0) AS old_refs, coalesce(b.refs, 0) + d.n AS new_refs
      FROM d LEFT JOIN user_blobs b ON b.user_id = d.user_id AND b.sha256 = d.sha256
  ), kept AS (
    INSERT INTO user_blobs (user_id, sha256, size, refs)
      SELECT j.user_id, j.sha256, j.size, j.new_refs FROM j WHERE j.new_refs > 0 ORDER BY j.user_id, j.sha256
      ON CONFLICT (user_id, sha256) DO UPDATE SET refs = excluded.refs
  ), gone AS (
    DELETE FROM user_blobs b USING j WHERE j.new_refs <= 0 AND b.user_id = j.user_id AND b.sha256 = j.sha256
  )
  UPDATE users u SET storage_used = u.storage_used + t.bytes
    FROM (
      SELECT j.user_id, sum(CASE WHEN j.old_refs <= 0 AND j.new_refs > 0 THEN j.size
                                 WHEN j.old_refs > 0 AND j.new_refs <= 0 THEN -j.size
                                 ELSE 0 END)::bigint AS bytes
        FROM j GROUP BY j.user_id
    ) t
    WHERE u.id = t.user_id AND t.bytes <> 0;
END $$;
--> statement-breakpoint
-- A site's rows that refer to blobs: its working tree's files and every deployment's manifest.
CREATE FUNCTION "site_blob_refs"(p_site uuid) RETURNS TABLE (sha256 text, size bigint, n bigint)
LANGUAGE sql STABLE AS $$
  SELECT r.sha256, max(r.size), count(*) FROM (
    SELECT f.sha256, f.file_size AS size FROM site_files f WHERE f.site_id = p_site AND f.sha256 IS NOT NULL
    UNION ALL
    SELECT df.sha256, df.size FROM deployment_files df JOIN deployments d ON d.id = df.deployment_id WHERE d.site_id = p_site
  ) r GROUP BY r.sha256
$$;
--> statement-breakpoint
CREATE FUNCTION "deployment_blob_refs"(p_deployment uuid) RETURNS TABLE (sha256 text, size bigint, n bigint)
LANGUAGE sql STABLE AS $$
  SELECT df.sha256, max(df.size), count(*) FROM deployment_files df WHERE df.deployment_id = p_deployment GROUP BY df.sha256
$$;
--> statement-breakpoint
-- Statement-level, over the transition tables: a publish of 1,000 files is one call. Rows whose
-- site is gone were deleted by the site's cascade, which sites_user_blobs counted already.
CREATE FUNCTION "site_files_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  owners text[];
  shas text[];
  sizes bigint[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(r.n) INTO owners, shas, sizes, deltas
      FROM (SELECT site_id, sha256, max(file_size) AS size, count(*) AS n FROM new_rows WHERE sha256 IS NOT NULL GROUP BY site_id, sha256) r
      JOIN sites s ON s.id = r.site_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(-r.n) INTO owners, shas, sizes, deltas
      FROM (SELECT site_id, sha256, max(file_size) AS size, count(*) AS n FROM old_rows WHERE sha256 IS NOT NULL GROUP BY site_id, sha256) r
      JOIN sites s ON s.id = r.site_id;
  ELSE
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(r.n) INTO owners, shas, sizes, deltas
      FROM (
        SELECT c.site_id, c.sha256, max(c.size) AS size, sum(c.n)::bigint AS n FROM (
          SELECT site_id, sha256, file_size AS size, 1 AS n FROM new_rows WHERE sha256 IS NOT NULL
          UNION ALL
          SELECT site_id, sha256, file_size, -1 FROM old_rows WHERE sha256 IS NOT NULL
        ) c GROUP BY c.site_id, c.sha256 HAVING sum(c.n) <> 0
      ) r
      JOIN sites s ON s.id = r.site_id;
  END IF;
  PERFORM user_blobs_apply(owners, shas, sizes, deltas);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The same for manifests; rows whose deployment is gone went with it (deployments_user_blobs).
CREATE FUNCTION "deployment_files_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  owners text[];
  shas text[];
  sizes bigint[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(r.n) INTO owners, shas, sizes, deltas
      FROM (SELECT deployment_id, sha256, max(size) AS size, count(*) AS n FROM new_rows GROUP BY deployment_id, sha256) r
      JOIN deployments d ON d.id = r.deployment_id JOIN sites s ON s.id = d.site_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(-r.n) INTO owners, shas, sizes, deltas
      FROM (SELECT deployment_id, sha256, max(size) AS size, count(*) AS n FROM old_rows GROUP BY deployment_id, sha256) r
      JOIN deployments d ON d.id = r.deployment_id JOIN sites s ON s.id = d.site_id;
  ELSE
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(r.n) INTO owners, shas, sizes, deltas
      FROM (
        SELECT c.deployment_id, c.sha256, max(c.size) AS size, sum(c.n)::bigint AS n FROM (
          SELECT deployment_id, sha256, size, 1 AS n FROM new_rows
          UNION ALL
          SELECT deployment_id, sha256, size, -1 FROM old_rows
        ) c GROUP BY c.deployment_id, c.sha256 HAVING sum(c.n) <> 0
      ) r
      JOIN deployments d ON d.id = r.deployment_id JOIN sites s ON s.id = d.site_id;
  END IF;
  PERFORM user_blobs_apply(owners, shas, sizes, deltas);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Before a deployment goes, while its manifest still reaches the owner through the site: the
-- cascade that deletes the manifest runs after the row is gone. When the site is gone already,
-- sites_user_blobs counted the deployment. After a move to another site (Berth never moves one),
-- the manifest changes owner.
CREATE FUNCTION "deployments_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_owner text;
  owners text[];
  shas text[];
  sizes bigint[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT s.user_id INTO v_owner FROM sites s WHERE s.id = OLD.site_id;
    IF v_owner IS NOT NULL THEN
      SELECT array_agg(v_owner), array_agg(r.sha256), array_agg(r.size), array_agg(-r.n) INTO owners, shas, sizes, deltas
        FROM deployment_blob_refs(OLD.id) r;
      PERFORM user_blobs_apply(owners, shas, sizes, deltas);
    END IF;
    RETURN OLD;
  END IF;
  SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(r.n * m.sign) INTO owners, shas, sizes, deltas
    FROM (SELECT OLD.site_id AS site_id, -1 AS sign UNION ALL SELECT NEW.site_id, 1) m
    JOIN sites s ON s.id = m.site_id CROSS JOIN deployment_blob_refs(NEW.id) r;
  PERFORM user_blobs_apply(owners, shas, sizes, deltas);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Before a site goes, everything it refers to leaves its owner's counts at once; the cascades to
-- its files and deployments then find no site and count nothing. A site changing owner (Berth
-- never does it) takes its counts along.
CREATE FUNCTION "sites_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  owners text[];
  shas text[];
  sizes bigint[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(OLD.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(-r.n) INTO owners, shas, sizes, deltas
      FROM site_blob_refs(OLD.id) r;
    PERFORM user_blobs_apply(owners, shas, sizes, deltas);
    RETURN OLD;
  END IF;
  SELECT array_agg(m.user_id), array_agg(r.sha256), array_agg(r.size), array_agg(r.n * m.sign) INTO owners, shas, sizes, deltas
    FROM (SELECT OLD.user_id AS user_id, -1 AS sign UNION ALL SELECT NEW.user_id, 1) m CROSS JOIN site_blob_refs(NEW.id) r;
  PERFORM user_blobs_apply(owners, shas, sizes, deltas);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "site_files_user_blobs_insert" AFTER INSERT ON "site_files" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "site_files_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "site_files_user_blobs_update" AFTER UPDATE ON "site_files" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "site_files_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "site_files_user_blobs_delete" AFTER DELETE ON "site_files" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "site_files_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "deployment_files_user_blobs_insert" AFTER INSERT ON "deployment_files" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "deployment_files_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "deployment_files_user_blobs_update" AFTER UPDATE ON "deployment_files" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "deployment_files_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "deployment_files_user_blobs_delete" AFTER DELETE ON "deployment_files" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "deployment_files_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "deployments_user_blobs_delete" BEFORE DELETE ON "deployments" FOR EACH ROW EXECUTE FUNCTION "deployments_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "deployments_user_blobs_move" AFTER UPDATE OF "site_id" ON "deployments" FOR EACH ROW WHEN (OLD.site_id IS DISTINCT FROM NEW.site_id) EXECUTE FUNCTION "deployments_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "sites_user_blobs_delete" BEFORE DELETE ON "sites" FOR EACH ROW EXECUTE FUNCTION "sites_user_blobs"();
--> statement-breakpoint
CREATE TRIGGER "sites_user_blobs_move" AFTER UPDATE OF "user_id" ON "sites" FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION "sites_user_blobs"();
--> statement-breakpoint
-- Existing data, counted after the triggers exist: creating them locked these tables against
-- writes until this migration commits, so nothing can change between the count and the triggers.
INSERT INTO "user_blobs" ("user_id", "sha256", "size", "refs")
SELECT r.user_id, r.sha256, max(r.size), count(*) FROM (
  SELECT s.user_id, f.sha256, f.file_size AS size FROM site_files f JOIN sites s ON s.id = f.site_id WHERE f.sha256 IS NOT NULL
  UNION ALL
  SELECT s.user_id, df.sha256, df.size FROM deployment_files df JOIN deployments d ON d.id = df.deployment_id JOIN sites s ON s.id = d.site_id
) r GROUP BY r.user_id, r.sha256;
--> statement-breakpoint
UPDATE "users" u SET "storage_used" = t.bytes
FROM (SELECT user_id, sum(size)::bigint AS bytes FROM user_blobs GROUP BY user_id) t
WHERE u.id = t.user_id;
