ALTER TABLE "organisations" ADD COLUMN "order_delivery_secret_format" text DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "previous_order_delivery_secret_format" text DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "secret_format" text DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_format" text DEFAULT 'legacy' NOT NULL;