-- user_blobs records presence instead of a count: a row per user and blob while any of the user's
-- site_files or deployment_files rows refers to it. With a count, every publish rewrote the row of
-- every file of the site (a new version of a 1,000-file site refers to 1,000 blobs once more), the
-- largest part of a publish's time. Now a new manifest writes rows only for blobs new to the user,
-- and rows that stop referring to a blob make the trigger look for any other reference, through
-- the sha256 indexes of both tables.
--
-- Both helpers take the owners' users rows first, in id order, as before: one transaction at a
-- time changes a user's rows, so a look for other references sees every committed one (READ
-- COMMITTED gives each statement a new snapshot, taken after the lock), and an insert racing a
-- removal of the same blob ends with the row present exactly when a reference is.
CREATE FUNCTION "user_blobs_add"(p_users text[], p_shas text[], p_sizes bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(p_users), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM users WHERE id = ANY (p_users) ORDER BY id FOR NO KEY UPDATE;
  -- Most blobs of a new version are the user's already: a lookup passes over them, cheaper than
  -- an insert that meets the conflict (which stays, for a row another statement of this
  -- transaction wrote).
  WITH added AS (
    INSERT INTO user_blobs (user_id, sha256, size)
      SELECT t.user_id, t.sha256, max(t.size) FROM unnest(p_users, p_shas, p_sizes) AS t(user_id, sha256, size)
        WHERE NOT EXISTS (SELECT 1 FROM user_blobs b WHERE b.user_id = t.user_id AND b.sha256 = t.sha256)
        GROUP BY t.user_id, t.sha256 ORDER BY t.user_id, t.sha256
      ON CONFLICT (user_id, sha256) DO NOTHING
      RETURNING user_id, size
  )
  UPDATE users u SET storage_used = u.storage_used + t.bytes
    FROM (SELECT user_id, sum(size)::bigint AS bytes FROM added GROUP BY user_id) t
    WHERE u.id = t.user_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION "user_blobs_recheck"(p_users text[], p_shas text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(p_users), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM users WHERE id = ANY (p_users) ORDER BY id FOR NO KEY UPDATE;
  WITH gone AS (
    DELETE FROM user_blobs b
      USING (SELECT DISTINCT t.user_id, t.sha256 FROM unnest(p_users, p_shas) AS t(user_id, sha256)) c
      WHERE b.user_id = c.user_id AND b.sha256 = c.sha256
        AND NOT EXISTS (
          SELECT 1 FROM site_files f JOIN sites s ON s.id = f.site_id
            WHERE f.sha256 = c.sha256 AND s.user_id = c.user_id)
        AND NOT EXISTS (
          SELECT 1 FROM deployment_files df JOIN deployments d ON d.id = df.deployment_id JOIN sites s ON s.id = d.site_id
            WHERE df.sha256 = c.sha256 AND s.user_id = c.user_id)
      RETURNING b.user_id, b.size
  )
  UPDATE users u SET storage_used = u.storage_used - t.bytes
    FROM (SELECT user_id, sum(size)::bigint AS bytes FROM gone GROUP BY user_id) t
    WHERE u.id = t.user_id;
END $$;
--> statement-breakpoint
-- Statement-level, over the transition tables. An update adds only pairs it did not have before
-- and rechecks only pairs it no longer has, so rewriting a working tree in place costs nothing
-- for the files that kept their bytes. Rows whose site is gone count nothing: deleting a site
-- deletes its rows first (sites_user_blobs), while the site still names their owner.
CREATE OR REPLACE FUNCTION "site_files_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  owners text[];
  shas text[];
  sizes bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size) INTO owners, shas, sizes
      FROM (SELECT site_id, sha256, max(file_size) AS size FROM new_rows WHERE sha256 IS NOT NULL GROUP BY site_id, sha256) r
      JOIN sites s ON s.id = r.site_id;
    PERFORM user_blobs_add(owners, shas, sizes);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256) INTO owners, shas
      FROM (SELECT DISTINCT site_id, sha256 FROM old_rows WHERE sha256 IS NOT NULL) r
      JOIN sites s ON s.id = r.site_id;
    PERFORM user_blobs_recheck(owners, shas);
  ELSE
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size) INTO owners, shas, sizes
      FROM (
        SELECT n.site_id, n.sha256, max(n.file_size) AS size FROM new_rows n
          WHERE n.sha256 IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.site_id = n.site_id AND o.sha256 = n.sha256)
          GROUP BY n.site_id, n.sha256
      ) r
      JOIN sites s ON s.id = r.site_id;
    PERFORM user_blobs_add(owners, shas, sizes);
    SELECT array_agg(s.user_id), array_agg(r.sha256) INTO owners, shas
      FROM (
        SELECT DISTINCT o.site_id, o.sha256 FROM old_rows o
          WHERE o.sha256 IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.site_id = o.site_id AND n.sha256 = o.sha256)
      ) r
      JOIN sites s ON s.id = r.site_id;
    PERFORM user_blobs_recheck(owners, shas);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The same for manifests; a deployment's rows are deleted before it goes (deployments_user_blobs).
CREATE OR REPLACE FUNCTION "deployment_files_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  owners text[];
  shas text[];
  sizes bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size) INTO owners, shas, sizes
      FROM (SELECT deployment_id, sha256, max(size) AS size FROM new_rows GROUP BY deployment_id, sha256) r
      JOIN deployments d ON d.id = r.deployment_id JOIN sites s ON s.id = d.site_id;
    PERFORM user_blobs_add(owners, shas, sizes);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(s.user_id), array_agg(r.sha256) INTO owners, shas
      FROM (SELECT DISTINCT deployment_id, sha256 FROM old_rows) r
      JOIN deployments d ON d.id = r.deployment_id JOIN sites s ON s.id = d.site_id;
    PERFORM user_blobs_recheck(owners, shas);
  ELSE
    SELECT array_agg(s.user_id), array_agg(r.sha256), array_agg(r.size) INTO owners, shas, sizes
      FROM (
        SELECT n.deployment_id, n.sha256, max(n.size) AS size FROM new_rows n
          WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.deployment_id = n.deployment_id AND o.sha256 = n.sha256)
          GROUP BY n.deployment_id, n.sha256
      ) r
      JOIN deployments d ON d.id = r.deployment_id JOIN sites s ON s.id = d.site_id;
    PERFORM user_blobs_add(owners, shas, sizes);
    SELECT array_agg(s.user_id), array_agg(r.sha256) INTO owners, shas
      FROM (
        SELECT DISTINCT o.deployment_id, o.sha256 FROM old_rows o
          WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.deployment_id = o.deployment_id AND n.sha256 = o.sha256)
      ) r
      JOIN deployments d ON d.id = r.deployment_id JOIN sites s ON s.id = d.site_id;
    PERFORM user_blobs_recheck(owners, shas);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Before a deployment goes, its manifest goes, while the deployment still leads to the owner (the
-- cascade would delete the rows after the deployment, when nothing leads there any more). Moving a
-- deployment to another site (Berth never does) adds its blobs to the new owner and rechecks them
-- for the old one.
CREATE OR REPLACE FUNCTION "deployments_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_old_owner text;
  v_new_owner text;
  shas text[];
  sizes bigint[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM deployment_files WHERE deployment_id = OLD.id;
    RETURN OLD;
  END IF;
  SELECT s.user_id INTO v_old_owner FROM sites s WHERE s.id = OLD.site_id;
  SELECT s.user_id INTO v_new_owner FROM sites s WHERE s.id = NEW.site_id;
  SELECT array_agg(r.sha256), array_agg(r.size) INTO shas, sizes
    FROM (SELECT sha256, max(size) AS size FROM deployment_files WHERE deployment_id = NEW.id GROUP BY sha256) r;
  IF v_new_owner IS NOT NULL THEN
    PERFORM user_blobs_add(array_fill(v_new_owner, ARRAY[coalesce(cardinality(shas), 0)]), shas, sizes);
  END IF;
  IF v_old_owner IS NOT NULL THEN
    PERFORM user_blobs_recheck(array_fill(v_old_owner, ARRAY[coalesce(cardinality(shas), 0)]), shas);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Before a site goes, its working tree and its manifests go, while the site still names the owner;
-- the deployments themselves are left to the cascade (deleting them here would set the site's
-- live pointer to null on the very row being deleted). A site changing owner (Berth never does it)
-- takes its blobs along.
CREATE OR REPLACE FUNCTION "sites_user_blobs"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  shas text[];
  sizes bigint[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM site_files WHERE site_id = OLD.id;
    DELETE FROM deployment_files WHERE deployment_id IN (SELECT id FROM deployments WHERE site_id = OLD.id);
    RETURN OLD;
  END IF;
  SELECT array_agg(r.sha256), array_agg(r.size) INTO shas, sizes FROM (
    SELECT x.sha256, max(x.size) AS size FROM (
      SELECT f.sha256, f.file_size AS size FROM site_files f WHERE f.site_id = NEW.id AND f.sha256 IS NOT NULL
      UNION ALL
      SELECT df.sha256, df.size FROM deployment_files df JOIN deployments d ON d.id = df.deployment_id WHERE d.site_id = NEW.id
    ) x GROUP BY x.sha256
  ) r;
  PERFORM user_blobs_add(array_fill(NEW.user_id, ARRAY[coalesce(cardinality(shas), 0)]), shas, sizes);
  PERFORM user_blobs_recheck(array_fill(OLD.user_id, ARRAY[coalesce(cardinality(shas), 0)]), shas);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION "user_blobs_apply"(text[], text[], bigint[], bigint[]);
--> statement-breakpoint
DROP FUNCTION "site_blob_refs"(uuid);
--> statement-breakpoint
DROP FUNCTION "deployment_blob_refs"(uuid);
--> statement-breakpoint
-- Every row counted at least one reference (a count reaching zero deleted its row), so the rows
-- are already the presence this migration keeps.
ALTER TABLE "user_blobs" DROP COLUMN "refs";
