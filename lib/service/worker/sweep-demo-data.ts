// The demo's retention: a demo server runs for weeks while its simulator adds photos every few
// seconds, so everything the demo organisations made more than `retentionHours` ago is removed —
// missions with their submissions, images and photo files (originals and derivatives), orders with
// their locations, cycles, payments, assignments and delivery endpoint, and events with their
// webhook deliveries. Only the organisations named are touched. Live work stays: a one-off order
// still being fulfilled keeps its missions, a running recurring order loses only its finished old
// cycles. Free missions go by age alone (an active one that old is stale; the demo publishes a new
// one). Files go first, then rows, so an interrupted sweep leaves rows the next sweep finds again.
import { rm } from "node:fs/promises";
import { and, inArray, isNull, lt, ne, notInArray, notLike, or, sql } from "drizzle-orm";
import { events, images, missions, orders, webhookEndpoints } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";

export interface SweepDemoDataOptions {
  orgIds: string[];
  retentionHours: number;
  /** The sweep's clock (tests run a simulated week through it). */
  now?: Date;
  /** Rows per statement: short transactions, so the API is not held up on PGlite's one connection. */
  batchSize?: number;
  /** Orders whose client reference starts with one of these are kept whatever their age (the demo's month of history: times, not photos). */
  keepReferencePrefixes?: string[];
}

export interface SweepReport {
  missions: number;
  images: number;
  files: number;
  orders: number;
  cycles: number;
  payments: number;
  events: number;
}

/** Orders still being worked on: their missions, assignments and payments stay whatever their age. */
const LIVE_ORDER_STATUSES = ["confirmed", "in_progress", "active", "paused"] as const;

export async function sweepDemoData(
  ctx: Pick<ServiceContext, "db" | "dbKind" | "store" | "missionCache">,
  options: SweepDemoDataOptions,
): Promise<SweepReport> {
  const { db, store } = ctx;
  const { orgIds, retentionHours, now = new Date(), batchSize = 50, keepReferencePrefixes = [] } = options;
  const report: SweepReport = { missions: 0, images: 0, files: 0, orders: 0, cycles: 0, payments: 0, events: 0 };
  if (orgIds.length === 0) return report;
  const cutoff = new Date(now.getTime() - retentionHours * 3_600_000);

  const staleOrders = (
    await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          inArray(orders.orgId, orgIds),
          lt(orders.createdAt, cutoff),
          notInArray(orders.status, [...LIVE_ORDER_STATUSES]),
          ...keepReferencePrefixes.map((prefix) =>
            or(isNull(orders.clientReference), notLike(orders.clientReference, `${prefix.replace(/[\\%_]/g, "\\$&")}%`)),
          ),
        ),
      )
  ).map((o) => o.id);
  const liveRecurring = (
    await db
      .select({ id: orders.id, recurring: orders.recurring })
      .from(orders)
      .where(and(inArray(orders.orgId, orgIds), inArray(orders.status, ["active", "paused"])))
  )
    .filter((o) => (o.recurring as { enabled?: boolean } | null)?.enabled)
    .map((o) => o.id);

  const orderMissions = [
    ...(staleOrders.length > 0 ? [inArray(missions.orderId, staleOrders)] : []),
    ...(liveRecurring.length > 0 ? [and(ne(missions.status, "active"), inArray(missions.orderId, liveRecurring))] : []),
  ];
  const doomed = and(inArray(missions.orgId, orgIds), lt(missions.createdAt, cutoff), or(isNull(missions.orderId), ...orderMissions));
  for (;;) {
    const batch = await db.select({ id: missions.id, orgId: missions.orgId }).from(missions).where(doomed).limit(batchSize);
    if (batch.length === 0) break;
    const ids = batch.map((m) => m.id);
    const files = await db
      .select({ original: images.storageKey, thumbnail: images.thumbnailKey, preview: images.previewKey })
      .from(images)
      .where(inArray(images.missionId, ids));
    for (const file of files) {
      for (const key of [file.original, file.thumbnail, file.preview]) {
        if (!key) continue;
        await store.delete(key).catch((error: unknown) => console.warn(`[demo] could not delete ${key}`, error));
        report.files++;
      }
    }
    // A local store also drops each mission's folder (and anything a crashed job left in it).
    if (store.localPath) {
      for (const m of batch) await rm(store.localPath(`${m.orgId}/${m.id}`), { recursive: true, force: true });
    }
    await db.delete(missions).where(inArray(missions.id, ids)); // submissions, images and assignments cascade
    for (const id of ids) ctx.missionCache.invalidate(id);
    report.missions += ids.length;
    report.images += files.length;
  }

  for (let i = 0; i < staleOrders.length; i += batchSize) {
    const ids = staleOrders.slice(i, i + batchSize);
    await db.delete(webhookEndpoints).where(inArray(webhookEndpoints.orderId, ids));
    await db.delete(orders).where(inArray(orders.id, ids)); // locations, cycles, payments and assignments cascade
    report.orders += ids.length;
  }

  // A running recurring order: the cycles whose missions are all gone, and what was paid for them.
  for (const orderId of liveRecurring) {
    const cycles = await db.execute(sql`
      delete from order_cycles c
      where c.order_id = ${orderId} and c.created_at < ${cutoff.toISOString()}
        and c.index < (select next_cycle_index from orders o where o.id = c.order_id)
        and not exists (select 1 from missions m where m.order_id = c.order_id and m.cycle_index = c.index)`);
    const payments = await db.execute(sql`
      delete from payments p
      where p.order_id = ${orderId} and p.created_at < ${cutoff.toISOString()}
        and p.cycle_index < (select next_cycle_index from orders o where o.id = p.order_id)
        and not exists (select 1 from order_cycles c where c.order_id = p.order_id and c.index = p.cycle_index)`);
    report.cycles += affected(cycles);
    report.payments += affected(payments);
  }

  for (;;) {
    const batch = await db
      .select({ id: events.id })
      .from(events)
      .where(and(inArray(events.orgId, orgIds), lt(events.createdAt, cutoff)))
      .limit(batchSize * 20);
    if (batch.length === 0) break;
    await db.delete(events).where(
      inArray(
        events.id,
        batch.map((e) => e.id),
      ),
    ); // deliveries and attempts cascade
    report.events += batch.length;
  }

  // PGlite has no autovacuum: without this the freed space is never reused and the files grow.
  if (ctx.dbKind === "pglite" && Object.values(report).some((n) => n > 0)) {
    await db.execute(
      sql`vacuum missions, submissions, images, assignments, events, webhook_deliveries, webhook_attempts, orders, order_locations, order_cycles, payments`,
    );
  }
  return report;
}

function affected(result: unknown): number {
  const r = result as { affectedRows?: number; rowCount?: number | null };
  return r.affectedRows ?? r.rowCount ?? 0;
}
