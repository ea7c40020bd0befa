CREATE TABLE "deployment_checks" (
	"deployment_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_token" uuid,
	"leased_until" timestamp with time zone,
	"problem_count" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"renames" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"files_checked" integer DEFAULT 0 NOT NULL,
	"files_partly_checked" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	CONSTRAINT "deployment_checks_status_check" CHECK ("deployment_checks"."status" in ('pending', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "deployment_checks" ADD CONSTRAINT "deployment_checks_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_checks_due_idx" ON "deployment_checks" USING btree ("created_at") WHERE "deployment_checks"."status" = 'pending';