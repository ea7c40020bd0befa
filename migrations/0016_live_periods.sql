CREATE TABLE "live_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"deployment_id" uuid,
	"version" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_periods" ADD CONSTRAINT "live_periods_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_periods" ADD CONSTRAINT "live_periods_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_periods_site_id_started_at_idx" ON "live_periods" USING btree ("site_id","started_at");--> statement-breakpoint
-- Until now nothing recorded when each deployment went live. A published deployment went live
-- when it was published, so those times are known; a rollback or promotion since is not, so a
-- site whose live deployment is not its newest published one is recorded as going live now.
INSERT INTO "live_periods" ("site_id", "deployment_id", "version", "started_at")
SELECT "site_id", "id", "version", "published_at" FROM "deployments"
WHERE "status" = 'success' AND NOT "is_draft" AND "published_at" IS NOT NULL;--> statement-breakpoint
INSERT INTO "live_periods" ("site_id", "deployment_id", "version", "started_at")
SELECT s."id", d."id", d."version", now() FROM "sites" s JOIN "deployments" d ON d."id" = s."live_deployment_id"
WHERE d."id" IS DISTINCT FROM (
  SELECT lp."deployment_id" FROM "live_periods" lp WHERE lp."site_id" = s."id" ORDER BY lp."started_at" DESC LIMIT 1
);
