CREATE TABLE "analytics_daily" (
	"site_id" uuid NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"requests" integer NOT NULL,
	"bot_requests" integer NOT NULL,
	"bandwidth" bigint NOT NULL,
	CONSTRAINT "analytics_daily_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_top" (
	"site_id" uuid NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	CONSTRAINT "analytics_daily_top_site_id_day_dimension_key_pk" PRIMARY KEY("site_id","day","dimension","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_dirty" (
	"site_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	CONSTRAINT "analytics_dirty_site_id_hour_pk" PRIMARY KEY("site_id","hour")
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analytics_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"host_kind" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"page_view" boolean NOT NULL,
	"bot" boolean NOT NULL,
	"referrer_host" text,
	"country" text,
	"visitor" text,
	"requests" integer NOT NULL,
	"bytes" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_hourly" (
	"site_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"requests" integer NOT NULL,
	"bot_requests" integer NOT NULL,
	"bandwidth" bigint NOT NULL,
	CONSTRAINT "analytics_hourly_site_id_hour_pk" PRIMARY KEY("site_id","hour")
);
--> statement-breakpoint
CREATE TABLE "analytics_hourly_top" (
	"site_id" uuid NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	CONSTRAINT "analytics_hourly_top_site_id_hour_dimension_key_pk" PRIMARY KEY("site_id","hour","dimension","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" timestamp with time zone PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "weekly_summaries" (
	"user_id" text NOT NULL,
	"week" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weekly_summaries_user_id_week_pk" PRIMARY KEY("user_id","week")
);
--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_top" ADD CONSTRAINT "analytics_daily_top_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_dirty" ADD CONSTRAINT "analytics_dirty_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_hourly" ADD CONSTRAINT "analytics_hourly_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_hourly_top" ADD CONSTRAINT "analytics_hourly_top_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weekly_summaries" ADD CONSTRAINT "weekly_summaries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_daily_day_idx" ON "analytics_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "analytics_daily_top_day_idx" ON "analytics_daily_top" USING btree ("day");--> statement-breakpoint
CREATE INDEX "analytics_events_site_id_at_idx" ON "analytics_events" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "analytics_events_at_idx" ON "analytics_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "analytics_hourly_hour_idx" ON "analytics_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "analytics_hourly_top_hour_idx" ON "analytics_hourly_top" USING btree ("hour");