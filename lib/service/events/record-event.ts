// Writes an event to the outbox inside the caller's transaction, with one delivery per
// subscribed, enabled webhook endpoint — so an event and its deliveries exist exactly when the
// change that caused them was committed, and none exists for a rolled-back change. The payload
// bytes are fixed here: every attempt of a delivery sends the same body.
import { and, arrayOverlaps, eq, isNull, or } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { events, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { TEST_EVENT, type WebhookEventType } from "@/lib/schemas/webhook";

export type EventType = WebhookEventType | typeof TEST_EVENT;

export interface RecordEventOptions {
  orgId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** Deliver to this endpoint only, whatever it subscribes to (test events). */
  onlyEndpointId?: string;
  /** An order's event: also delivered to that order's `delivery.webhook_url`, if it has one. */
  orderId?: string;
}

export function eventEnvelope(id: string, type: EventType, createdAt: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ id, event: type, timestamp: createdAt.toISOString(), data });
}

export async function recordEvent(tx: Db, { orgId, type, data, onlyEndpointId, orderId }: RecordEventOptions): Promise<{ eventId: string; deliveryIds: string[] }> {
  const id = createId("event");
  const createdAt = new Date();
  // The endpoints first, then the event and its deliveries in one statement: two round trips per
  // event instead of three (a write causing many events, or PGlite's one thread, pays per statement).
  const targets = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      onlyEndpointId
        ? and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, onlyEndpointId))
        : and(
            eq(webhookEndpoints.orgId, orgId),
            eq(webhookEndpoints.enabled, true),
            or(
              and(isNull(webhookEndpoints.orderId), arrayOverlaps(webhookEndpoints.events, [type, "*"])),
              orderId ? eq(webhookEndpoints.orderId, orderId) : undefined,
            ),
          ),
    );
  const event = tx.insert(events).values({ id, orgId, type, data, createdAt });
  if (targets.length === 0) {
    await event;
    return { eventId: id, deliveryIds: [] };
  }
  const payload = eventEnvelope(id, type, createdAt, data);
  const rows = targets.map((t) => ({ id: createId("delivery"), orgId, endpointId: t.id, eventId: id, payload, nextAttemptAt: createdAt }));
  // The deliveries' foreign key to the event is checked at the end of the statement, when the
  // event's row (inserted by the WITH part) is there.
  await tx.with(tx.$with("event").as(event)).insert(webhookDeliveries).values(rows);
  return { eventId: id, deliveryIds: rows.map((r) => r.id) };
}
