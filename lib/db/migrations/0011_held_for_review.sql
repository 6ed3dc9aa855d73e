ALTER TABLE "assignments" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "review_decision" text;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "assignments_org_held_idx" ON "assignments" USING btree ("org_id","held_at");