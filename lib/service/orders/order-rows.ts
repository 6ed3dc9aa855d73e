// Reading an order and what hangs off it (locations, payments, missions), and its wire form.
import { pageTotal } from "@/lib/db/page-total";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { queryPrepared, type Db } from "@/lib/db/client";
import { rowsFromJson } from "@/lib/db/json-rows";
import { reusableQuery } from "@/lib/db/reusable-query";
import { deliveryPromises, missions, orderLocations, orders, payments, type MissionStatus } from "@/lib/db/schema";
import { orderDeliveryStatus } from "@/lib/orders/delivery-promise";
import type { Order, Quote, RecurringInput, Requirements } from "@/lib/schemas/order";
import { storedQuote } from "./stored-quote";
import type { ServiceContext } from "@/lib/service/context";
import { notFound } from "@/lib/service/errors";
import { isoOrNull } from "@/lib/service/iso-or-null";
import { ORDERS_BASE_PATH } from "@/lib/service/context";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLocationRow = typeof orderLocations.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type DeliveryPromiseRow = typeof deliveryPromises.$inferSelect;

// The order's row, read by every order route: built once (reusable-query.ts) where it is read on
// the database itself; in a transaction (an order's snapshot, a change) once per transaction.
const orderRow = reusableQuery("order_row", (db) =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.id, sql.placeholder("id")), eq(orders.orgId, sql.placeholder("orgId"))))
    .limit(1),
);

export async function getOrderRow(db: Db, orgId: string, id: string, { forUpdate = false } = {}): Promise<OrderRow> {
  const [row] = forUpdate
    ? await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, id), eq(orders.orgId, orgId)))
        .limit(1)
        .for("update")
    : await orderRow(db, { id, orgId });
  if (!row) throw notFound("order");
  return row;
}

export function getOrderLocations(db: Db, orderId: string): Promise<OrderLocationRow[]> {
  return db.select().from(orderLocations).where(eq(orderLocations.orderId, orderId)).orderBy(asc(orderLocations.position));
}

export function serializePayment(row: PaymentRow, origin: string) {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    amount_cents: row.amountCents,
    currency: row.currency,
    cycle_index: row.cycleIndex,
    payment_method: row.paymentMethod,
    failure_code: row.failureCode,
    failure_message: row.failureMessage,
    next_action:
      row.status === "requires_action"
        ? { type: "authenticate" as const, url: `${origin}${ORDERS_BASE_PATH}/orders/${row.orderId}/payments/${row.id}/authenticate` }
        : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Money actually taken and returned for an order. */
export function paymentTotals(rows: PaymentRow[]): { charged: number; refunded: number } {
  let charged = 0;
  let refunded = 0;
  for (const row of rows) {
    if (row.status !== "succeeded") continue;
    if (row.kind === "charge") charged += row.amountCents;
    else refunded += row.amountCents;
  }
  return { charged, refunded };
}

/** What a just-created order has besides its row: its locations, and nothing charged or dispatched. */
export function newOrderExtras(locations: OrderLocationRow[]): OrderExtras {
  return { locations, payments: [], promises: [], missionCounts: { total: 0, active: 0, completed: 0, cancelled: 0 }, nextCycle: null };
}

export interface OrderExtras {
  locations: OrderLocationRow[];
  payments: PaymentRow[];
  /** Each dispatched location's promise of its latest cycle (older cycles' are not read). */
  promises: DeliveryPromiseRow[];
  missionCounts: { total: number; active: number; completed: number; cancelled: number };
  nextCycle: { index: number; local_date: string; dispatch_at: string } | null;
}

type StoredExtras = Omit<OrderExtras, "nextCycle">;

/**
 * What hangs off each of these orders — locations, payments, mission counts, latest promises — in
 * one statement whatever the number of orders: each table's rows aggregated as JSON, read back as
 * drizzle's rows (a list page was once three to four reads per order, then four reads; on PGlite
 * each statement costs about a millisecond around its run, on PostgreSQL a round trip).
 */
export async function loadOrderExtras(db: Db, rows: readonly OrderRow[]): Promise<Map<string, StoredExtras>> {
  const ids = rows.map((r) => r.id);
  const out = new Map<string, StoredExtras>(
    ids.map((id) => [id, { locations: [], payments: [], promises: [], missionCounts: { total: 0, active: 0, completed: 0, cancelled: 0 } }]),
  );
  if (ids.length === 0) return out;
  // One array parameter per use, so the text is the same for any number of orders (prepared once).
  const these = (column: AnyPgColumn) => sql`${column} = any(${sql.param(ids)}::text[])`;
  // Only each location's latest cycle is shown: a daily order's year of promises is not read on every GET.
  const [extras] = await queryPrepared<{
    locations: Record<string, unknown>[];
    payments: Record<string, unknown>[];
    missions: { order_id: string; status: MissionStatus; n: number }[];
    promises: Record<string, unknown>[];
  }>(
    db,
    "load_order_extras",
    sql`select
      (select coalesce(json_agg(${orderLocations} order by ${orderLocations.orderId}, ${orderLocations.position}), '[]'::json)
        from ${orderLocations} where ${these(orderLocations.orderId)}) as locations,
      (select coalesce(json_agg(${payments} order by ${payments.createdAt}, ${payments.id}), '[]'::json)
        from ${payments} where ${these(payments.orderId)}) as payments,
      (select coalesce(json_agg(m), '[]'::json)
        from (select ${missions.orderId} as order_id, ${missions.status} as status, count(*)::int as n
              from ${missions} where ${these(missions.orderId)} group by 1, 2) m) as missions,
      (select coalesce(json_agg(p order by p.order_id, p.location_id), '[]'::json)
        from (select distinct on (${deliveryPromises.orderId}, ${deliveryPromises.locationId}) * from ${deliveryPromises}
              where ${these(deliveryPromises.orderId)}
              order by ${deliveryPromises.orderId}, ${deliveryPromises.locationId}, ${deliveryPromises.cycleIndex} desc) p) as promises`,
  );
  if (!extras) throw new Error("the order extras' statement returned no row");
  for (const l of rowsFromJson(orderLocations, extras.locations)) out.get(l.orderId)?.locations.push(l);
  for (const p of rowsFromJson(deliveryPromises, extras.promises)) out.get(p.orderId)?.promises.push(p);
  for (const p of rowsFromJson(payments, extras.payments)) out.get(p.orderId)?.payments.push(p);
  for (const m of extras.missions) {
    const counts = out.get(m.order_id)?.missionCounts;
    if (!counts) continue;
    counts[m.status] = m.n;
    counts.total += m.n;
  }
  return out;
}

/** Each location's latest dispatched promise, by location (loadOrderExtras reads only the latest cycle's). */
function latestPromises(promises: readonly DeliveryPromiseRow[]): Map<string, DeliveryPromiseRow> {
  const latest = new Map<string, DeliveryPromiseRow>();
  for (const p of promises) latest.set(p.locationId, p);
  return latest;
}

/** A promise is open while its location is still to be delivered: not delivered, given up or cancelled. */
export const isOpenPromise = (p: Pick<DeliveryPromiseRow, "deliveredAt" | "closedAt">) => p.deliveredAt === null && p.closedAt === null;

export function serializeOrder(ctx: ServiceContext, row: OrderRow, extras: OrderExtras): Order {
  const totals = paymentTotals(extras.payments);
  const delivery = row.delivery as { webhook_url?: string };
  const promises = latestPromises(extras.promises);
  const shown = [...promises.values()];
  const latestDeliverBy = shown.reduce<Date | null>((latest, p) => (latest === null || p.deliverBy > latest ? p.deliverBy : latest), null);
  return {
    id: row.id,
    client_reference: row.clientReference,
    category: row.category as Order["category"],
    description: row.description,
    status: row.status,
    status_reason: row.statusReason,
    locations: extras.locations.map((l) => ({
      location_id: l.id,
      name: l.name,
      coordinates: { lat: l.lat, lng: l.lng },
      time_zone: l.timeZone,
      requirements: l.requirements as Requirements,
      ...promiseFields(promises.get(l.id)),
    })),
    requirements: row.requirements as Requirements,
    recurring: (row.recurring as RecurringInput | null) ?? null,
    delivery: { webhook_url: delivery.webhook_url ?? null },
    quote: storedQuote(row.quote as Quote),
    payments: extras.payments.map((p) => serializePayment(p, ctx.config.publicOrigin)),
    amount_charged_cents: totals.charged,
    amount_refunded_cents: totals.refunded,
    missions: extras.missionCounts,
    next_cycle: extras.nextCycle,
    deliver_by: isoOrNull(latestDeliverBy),
    delivery_status: orderDeliveryStatus(shown.map((p) => ({ status: p.status, open: isOpenPromise(p) }))),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    confirmed_at: isoOrNull(row.confirmedAt),
    cancelled_at: isoOrNull(row.cancelledAt),
    expires_at:
      row.status === "pending_confirmation" || row.status === "payment_failed" || row.status === "payment_action_required" ? row.expiresAt.toISOString() : null,
  };
}

function promiseFields(p: DeliveryPromiseRow | undefined) {
  return {
    cycle_index: p?.cycleIndex ?? null,
    deliver_by: isoOrNull(p?.deliverBy ?? null),
    expected_take_by: isoOrNull(p?.expectedTakeBy ?? null),
    delivery_status: p?.status ?? null,
    escalated: (p?.escalatedAt ?? null) !== null,
    cancelled_at: isoOrNull(p?.cancelledAt ?? null),
  };
}

export interface ListOrderFilters {
  statuses: OrderRow["status"][] | null;
  clientReference?: string;
  createdSince?: string;
  page: number;
  perPage: number;
}

/** Newest first, with the list filters of the order interface. */
export async function listOrderRows(db: Db, orgId: string, filters: ListOrderFilters) {
  const condition = and(
    eq(orders.orgId, orgId),
    filters.statuses ? inArray(orders.status, filters.statuses) : undefined,
    filters.clientReference !== undefined ? eq(orders.clientReference, filters.clientReference) : undefined,
    filters.createdSince ? sql`${orders.createdAt} >= ${new Date(filters.createdSince).toISOString()}::timestamptz` : undefined,
  );
  const rows = await db
    .select()
    .from(orders)
    .where(condition)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filters.perPage)
    .offset((filters.page - 1) * filters.perPage);
  const total = await pageTotal(rows.length, filters, async () => (await db.select({ total: count() }).from(orders).where(condition))[0]?.total ?? 0);
  return { rows, total };
}
