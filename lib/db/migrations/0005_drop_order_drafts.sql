ALTER TABLE "idempotency_keys" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "order_locations" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "orders" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "idempotency_keys" CASCADE;--> statement-breakpoint
DROP TABLE "order_locations" CASCADE;--> statement-breakpoint
DROP TABLE "orders" CASCADE;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "access" text DEFAULT 'read_write' NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "cycle_index" integer;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "card_on_file" text DEFAULT 'pm_card_visa' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "order_delivery_secret" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "order_delivery_secret_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "previous_order_delivery_secret" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "previous_order_delivery_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "order_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_endpoints_order_unique" ON "webhook_endpoints" USING btree ("order_id");