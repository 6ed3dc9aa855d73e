CREATE TABLE "assignments" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"order_id" text NOT NULL,
	"mission_id" text NOT NULL,
	"location_id" text NOT NULL,
	"cycle_index" integer NOT NULL,
	"angle" text NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"zoomer_id" text,
	"reserved_until" timestamp with time zone,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"time_zone" text NOT NULL,
	"window_start" timestamp with time zone,
	"window_end" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL,
	"late" boolean DEFAULT false NOT NULL,
	"instructions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"submission_id" text,
	"image_id" text,
	"verification" jsonb,
	"weather" jsonb,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_cycles" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_zoomer_id_zoomers_id_fk" FOREIGN KEY ("zoomer_id") REFERENCES "public"."zoomers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assignments_status_idx" ON "assignments" USING btree ("status","lat","lng");--> statement-breakpoint
CREATE INDEX "assignments_mission_idx" ON "assignments" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "assignments_order_idx" ON "assignments" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "assignments_submission_unique" ON "assignments" USING btree ("submission_id");