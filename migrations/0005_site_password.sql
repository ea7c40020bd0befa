ALTER TABLE "sites" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "password_version" integer DEFAULT 0 NOT NULL;