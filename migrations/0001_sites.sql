CREATE TABLE "blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_files" (
	"deployment_id" uuid NOT NULL,
	"path" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	CONSTRAINT "deployment_files_deployment_id_path_pk" PRIMARY KEY("deployment_id","path")
);
--> statement-breakpoint
ALTER TABLE "available_subdomains" ADD COLUMN "reserved_by" text;--> statement-breakpoint
ALTER TABLE "available_subdomains" ADD COLUMN "reserved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "file_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "total_size" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "plan" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_files" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "live_deployment_id" uuid;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "deployment_files" ADD CONSTRAINT "deployment_files_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_files_sha256_idx" ON "deployment_files" USING btree ("sha256");--> statement-breakpoint
ALTER TABLE "available_subdomains" ADD CONSTRAINT "available_subdomains_reserved_by_users_id_fk" FOREIGN KEY ("reserved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_live_deployment_id_deployments_id_fk" FOREIGN KEY ("live_deployment_id") REFERENCES "public"."deployments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_files_sha256_idx" ON "site_files" USING btree ("sha256");--> statement-breakpoint
ALTER TABLE "site_files" ADD CONSTRAINT "site_files_site_id_file_path_key" UNIQUE("site_id","file_path");