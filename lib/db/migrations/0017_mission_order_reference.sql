ALTER TABLE "missions" ADD COLUMN "order_reference" text;--> statement-breakpoint
-- Missions dispatched before this column existed take their order's reference (it never changes).
UPDATE "missions" SET "order_reference" = "orders"."client_reference" FROM "orders" WHERE "missions"."order_id" = "orders"."id" AND "missions"."order_reference" IS NULL;
