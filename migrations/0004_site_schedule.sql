ALTER TABLE "sites" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "publish_at" timestamp with time zone;