CREATE TABLE "delivery_promises" (
	"order_id" text NOT NULL,
	"location_id" text NOT NULL,
	"cycle_index" integer NOT NULL,
	"org_id" text NOT NULL,
	"mission_id" text NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"expected_take_by" timestamp with time zone NOT NULL,
	"deliver_by" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'on_track' NOT NULL,
	"escalated_at" timestamp with time zone,
	"at_risk_at" timestamp with time zone,
	"late_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"refunded_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_promises_order_id_location_id_cycle_index_pk" PRIMARY KEY("order_id","location_id","cycle_index")
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_promises" ADD CONSTRAINT "delivery_promises_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_promises" ADD CONSTRAINT "delivery_promises_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_promises" ADD CONSTRAINT "delivery_promises_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_promises_mission_unique" ON "delivery_promises" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "delivery_promises_open_idx" ON "delivery_promises" USING btree ("status","deliver_by");--> statement-breakpoint
CREATE INDEX "delivery_promises_org_delivered_idx" ON "delivery_promises" USING btree ("org_id","delivered_at");