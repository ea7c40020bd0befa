-- Raw analytics move from one row per entry to one row per site and write, holding the entries as
-- a jsonb array, and the roll-ups become incremental: each batch is added once (rolled_up), and
-- an hour's distinct visitors live in analytics_visitors instead of being recounted from raw rows.
-- `analytics_events` becomes a view that unnests the batches. See server/db/schema.ts.
CREATE TABLE "analytics_batches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analytics_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"events" jsonb NOT NULL,
	"rolled_up" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_visitors" (
	"site_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"visitor" text NOT NULL,
	CONSTRAINT "analytics_visitors_site_id_hour_visitor_pk" PRIMARY KEY("site_id","hour","visitor")
);
--> statement-breakpoint
-- Existing raw rows: one batch per site and minute, already counted unless their hour was still
-- waiting for its roll-up; such hours start again from their raw rows.
INSERT INTO "analytics_batches" ("site_id", "at", "events", "rolled_up")
SELECT e."site_id", e."at", jsonb_agg(jsonb_build_object(
	'host_kind', e."host_kind", 'path', e."path", 'status', e."status", 'page_view', e."page_view", 'bot', e."bot",
	'referrer_host', e."referrer_host", 'country', e."country", 'visitor', e."visitor", 'requests', e."requests", 'bytes', e."bytes")),
	NOT EXISTS (SELECT 1 FROM "analytics_dirty" d WHERE d."site_id" = e."site_id" AND d."hour" = date_trunc('hour', e."at", 'UTC'))
FROM "analytics_events" e GROUP BY e."site_id", e."at";--> statement-breakpoint
INSERT INTO "analytics_visitors" ("site_id", "hour", "visitor")
SELECT DISTINCT "site_id", date_trunc('hour', "at", 'UTC'), "visitor" FROM "analytics_events" WHERE "visitor" IS NOT NULL;--> statement-breakpoint
DELETE FROM "analytics_hourly" h USING "analytics_dirty" d WHERE h."site_id" = d."site_id" AND h."hour" = d."hour";--> statement-breakpoint
DELETE FROM "analytics_hourly_top" h USING "analytics_dirty" d WHERE h."site_id" = d."site_id" AND h."hour" = d."hour";--> statement-breakpoint
DROP TABLE "analytics_dirty" CASCADE;--> statement-breakpoint
DROP TABLE "analytics_events" CASCADE;--> statement-breakpoint
ALTER TABLE "analytics_batches" ADD CONSTRAINT "analytics_batches_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_visitors" ADD CONSTRAINT "analytics_visitors_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_batches_site_id_at_idx" ON "analytics_batches" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "analytics_batches_at_idx" ON "analytics_batches" USING btree ("at");--> statement-breakpoint
CREATE INDEX "analytics_batches_waiting_idx" ON "analytics_batches" USING btree ("id") WHERE not "analytics_batches"."rolled_up";--> statement-breakpoint
CREATE INDEX "analytics_visitors_hour_idx" ON "analytics_visitors" USING btree ("hour");--> statement-breakpoint
CREATE VIEW "analytics_events" AS
SELECT b."site_id", b."at", e."host_kind", e."path", e."status", e."page_view", e."bot", e."referrer_host", e."country", e."visitor", e."requests", e."bytes"
FROM "analytics_batches" b CROSS JOIN LATERAL jsonb_to_recordset(b."events") AS e(
	"host_kind" text, "path" text, "status" integer, "page_view" boolean, "bot" boolean,
	"referrer_host" text, "country" text, "visitor" text, "requests" integer, "bytes" bigint);
