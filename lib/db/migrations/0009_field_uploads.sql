CREATE TABLE "field_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"zoomer_id" text NOT NULL,
	"mission_id" text NOT NULL,
	"assignment_id" text,
	"metadata" jsonb NOT NULL,
	"upload_length" bigint NOT NULL,
	"submission_id" text,
	"refusal" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "intake_key" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "device_lat" double precision;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "device_lng" double precision;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "device_accuracy_m" double precision;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "device_captured_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "device_heading_deg" double precision;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "device_exif_distance_m" double precision;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "capture_to_upload_s" double precision;--> statement-breakpoint
ALTER TABLE "field_uploads" ADD CONSTRAINT "field_uploads_zoomer_id_zoomers_id_fk" FOREIGN KEY ("zoomer_id") REFERENCES "public"."zoomers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_uploads" ADD CONSTRAINT "field_uploads_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_uploads" ADD CONSTRAINT "field_uploads_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "field_uploads_expires_idx" ON "field_uploads" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "field_uploads_zoomer_idx" ON "field_uploads" USING btree ("zoomer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_intake_key_idx" ON "submissions" USING btree ("intake_key");