// Writes an event to the outbox inside the caller's transaction, with one delivery per
// subscribed, enabled webhook endpoint — so an event and its deliveries exist exactly when the
// change that caused them was committed, and none exists for a rolled-back change. The payload
// bytes are fixed here: every attempt of a delivery sends the same body.
import { and, arrayOverlaps, eq, isNull, notInArray, or, sql } from "drizzle-orm";
import { queryPrepared, type Db } from "@/lib/db/client";
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

/**
 * Delivery ids made before the statement, one per endpoint it may find: an event reaches one or
 * two endpoints as a rule; more than this and the rest are inserted by a second statement.
 */
const DELIVERY_IDS_AHEAD = 4;

export async function recordEvent(
  tx: Db,
  { orgId, type, data, onlyEndpointId, orderId }: RecordEventOptions,
): Promise<{ eventId: string; deliveryIds: string[] }> {
  const id = createId("event");
  const createdAt = new Date();
  const subscribed = onlyEndpointId
    ? and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, onlyEndpointId))
    : and(
        eq(webhookEndpoints.orgId, orgId),
        eq(webhookEndpoints.enabled, true),
        or(
          and(isNull(webhookEndpoints.orderId), arrayOverlaps(webhookEndpoints.events, [type, "*"])),
          orderId ? eq(webhookEndpoints.orderId, orderId) : undefined,
        ),
      );
  const payload = eventEnvelope(id, type, createdAt, data);
  const at = createdAt.toISOString();
  const ahead = Array.from({ length: DELIVERY_IDS_AHEAD }, () => createId("delivery"));
  // The event, the endpoints it goes to and their deliveries in one statement: one round trip per
  // event (a write causing many events, or PGlite's one thread, pays per statement), prepared —
  // planning its CTEs cost more than running them. One name per text: the endpoint filter differs
  // for a test event and for an order's event. The deliveries' foreign key to the event is checked
  // at the end of the statement, when the event's row is there.
  const name = onlyEndpointId ? "record_event_to_endpoint" : orderId ? "record_order_event" : "record_event";
  const [row] = await queryPrepared<{ found: number; deliveries: { id: string; endpoint_id: string }[] }>(
    tx,
    name,
    sql`with event as (
          insert into ${events} (id, org_id, type, data, created_at)
          values (${id}, ${orgId}, ${type}, ${JSON.stringify(data)}::jsonb, ${at}::timestamptz)
          returning id),
        targets as (
          select ${webhookEndpoints.id} as endpoint_id, (row_number() over (order by ${webhookEndpoints.id}))::int as n
          from ${webhookEndpoints} where ${subscribed}),
        inserted as (
          insert into ${webhookDeliveries} (id, org_id, endpoint_id, event_id, payload, next_attempt_at)
          select (array[${sql.join(
            ahead.map((a) => sql`${a}`),
            sql`, `,
          )}]::text[])[t.n], ${orgId}, t.endpoint_id, (select id from event), ${payload}, ${at}::timestamptz
          from targets t where t.n <= ${DELIVERY_IDS_AHEAD}
          returning id, endpoint_id)
        select (select count(*)::int from targets) as found,
          coalesce((select json_agg(json_build_object('id', i.id, 'endpoint_id', i.endpoint_id)) from inserted i), '[]'::json) as deliveries`,
  );
  const inserted = row?.deliveries ?? [];
  const deliveryIds = inserted.map((d) => d.id);
  if ((row?.found ?? 0) > inserted.length) {
    // More endpoints than ids made ahead: the others now, as two statements did before.
    const done = inserted.map((d) => d.endpoint_id);
    const rest = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(subscribed, notInArray(webhookEndpoints.id, done)));
    if (rest.length > 0) {
      const rows = rest.map((t) => ({ id: createId("delivery"), orgId, endpointId: t.id, eventId: id, payload, nextAttemptAt: createdAt }));
      await tx.insert(webhookDeliveries).values(rows);
      deliveryIds.push(...rows.map((r) => r.id));
    }
  }
  return { eventId: id, deliveryIds };
}
