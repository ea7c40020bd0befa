CREATE TABLE "blob_variants" (
	"sha256" text NOT NULL,
	"encoding" text NOT NULL,
	"variant_sha256" text,
	"size" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blob_variants_sha256_encoding_pk" PRIMARY KEY("sha256","encoding")
);
--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "config" jsonb;--> statement-breakpoint
CREATE INDEX "blob_variants_variant_idx" ON "blob_variants" USING btree ("variant_sha256");