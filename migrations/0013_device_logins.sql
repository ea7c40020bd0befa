CREATE TABLE "device_logins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_code_hash" text NOT NULL,
	"user_code" text NOT NULL,
	"client_name" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	CONSTRAINT "device_logins_device_code_hash_unique" UNIQUE("device_code_hash"),
	CONSTRAINT "device_logins_user_code_unique" UNIQUE("user_code"),
	CONSTRAINT "device_logins_status_check" CHECK ("device_logins"."status" in ('pending', 'approved', 'denied'))
);
--> statement-breakpoint
ALTER TABLE "device_logins" ADD CONSTRAINT "device_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_logins_expires_at_idx" ON "device_logins" USING btree ("expires_at");