ALTER TABLE "profiles" ADD COLUMN "notification_channels" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "storage_notice_level" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "expiry_noticed_for" timestamp with time zone;