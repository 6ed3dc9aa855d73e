DROP INDEX "events_undispatched_idx";--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "dispatched_at";