ALTER TABLE "images" ADD COLUMN "blurred_key" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "privacy_blur" boolean DEFAULT false NOT NULL;