CREATE TABLE "provenance_certificates" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"certificate_pem" text NOT NULL,
	"private_key" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "evidence_jws" text;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "c2pa_key" text;