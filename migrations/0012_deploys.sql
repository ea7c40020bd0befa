CREATE TABLE "deploy_uploads" (
	"deploy_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "deploy_uploads_deploy_id_sha256_pk" PRIMARY KEY("deploy_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "deploys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"manifest_hash" text,
	"file_count" integer NOT NULL,
	"total_size" bigint NOT NULL,
	"message" text,
	"draft" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"deployment_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "deploys_status_check" CHECK ("deploys"."status" in ('uploading', 'published', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "is_draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deploy_uploads" ADD CONSTRAINT "deploy_uploads_deploy_id_deploys_id_fk" FOREIGN KEY ("deploy_id") REFERENCES "public"."deploys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploys" ADD CONSTRAINT "deploys_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploys" ADD CONSTRAINT "deploys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploys" ADD CONSTRAINT "deploys_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deploy_uploads_sha256_idx" ON "deploy_uploads" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "deploys_open_manifest_key" ON "deploys" USING btree ("site_id","manifest_hash") WHERE "deploys"."status" = 'uploading';--> statement-breakpoint
CREATE INDEX "deploys_expires_at_idx" ON "deploys" USING btree ("expires_at");