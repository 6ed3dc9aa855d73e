// The promise sweep (run by housekeeping about once a minute; tests hand it their own clock as
// `now`): where the service's clock has passed a location's expected take time with a task of it
// still untaken, the task is escalated — listed first, and to zoomers farther away
// (lib/service/assignments/field-assignments.ts) — and the location turns `at_risk`; where it has
// passed deliver_by undelivered, the location turns `late`. Each change is a conditional update
// (from the state before it) in one transaction with its event, so whichever instance sweeps, each
// location of each cycle is reported in exactly one `order.at_risk` and one `order.late`, ever;
// the locations of one order that turn in the same sweep share one event. Orders are locked first,
// in id order, like every other change of an order (see lockDueOrders).
import { inArray, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { deliveryPromises, orderLocations, orders } from "@/lib/db/schema";
import { orderDeliveryStatus } from "@/lib/orders/delivery-promise";
import type { DeliveryStatus } from "@/lib/orders/vocabulary";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { isOpenPromise, type DeliveryPromiseRow } from "./order-rows";

export interface SweepDeliveryPromisesOptions {
  /** The service's clock: the sweep's idea of now (tests move it; housekeeping passes the time). */
  now?: Date;
}

export interface SweepReport {
  escalatedTasks: number;
  atRisk: number;
  late: number;
}

interface ChangedPromise {
  order_id: string;
  location_id: string;
  cycle_index: number;
}

/** An assignment nobody holds at `now`: open, or its reservation ran out. */
const untaken = (now: string) => sql`(a.status = 'open' or (a.status = 'reserved' and a.reserved_until < ${now}::timestamptz))`;

/**
 * The orders with an open promise past its expected take time or deliver_by, their rows locked
 * first — as cancelling an order or a location does, so the sweep never waits on one of them in
 * the opposite order (a deadlock); one being changed right now is left to the next sweep.
 */
async function lockDueOrders(tx: Db, now: string): Promise<SQL | null> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select o.id from orders o
        where exists (select 1 from delivery_promises p where p.order_id = o.id and p.delivered_at is null and p.closed_at is null
                        and (p.expected_take_by <= ${now}::timestamptz or p.deliver_by <= ${now}::timestamptz))
        order by o.id
        for update skip locked`,
  );
  return rows.length === 0
    ? null
    : sql`(${sql.join(
        rows.map((r) => sql`${r.id}`),
        sql`, `,
      )})`;
}

async function escalate(tx: Db, now: string, due: SQL): Promise<{ tasks: number; atRisk: ChangedPromise[] }> {
  const tasks = await queryRows<{ id: string }>(
    tx,
    sql`update assignments a set escalated_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
        from delivery_promises p
        where p.order_id in ${due} and p.mission_id = a.mission_id and p.delivered_at is null and p.closed_at is null
          and p.expected_take_by <= ${now}::timestamptz and a.escalated_at is null and ${untaken(now)}
        returning a.id`,
  );
  // A location is escalated with its first escalated task; one still on track turns at risk then.
  await tx.execute(
    sql`update delivery_promises p set escalated_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
        where p.order_id in ${due} and p.escalated_at is null and p.delivered_at is null and p.closed_at is null
          and exists (select 1 from assignments a where a.mission_id = p.mission_id and a.escalated_at is not null and ${untaken(now)})`,
  );
  const atRisk = await queryRows<ChangedPromise>(
    tx,
    sql`update delivery_promises p set status = 'at_risk', at_risk_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
        where p.order_id in ${due} and p.status = 'on_track' and p.at_risk_at is null and p.escalated_at is not null and p.delivered_at is null and p.closed_at is null
        returning p.order_id, p.location_id, p.cycle_index`,
  );
  return { tasks: tasks.length, atRisk };
}

async function markLate(tx: Db, now: string, due: SQL): Promise<ChangedPromise[]> {
  return queryRows<ChangedPromise>(
    tx,
    sql`update delivery_promises p set status = 'late', late_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
        where p.order_id in ${due} and p.status in ('on_track', 'at_risk') and p.late_at is null and p.deliver_by <= ${now}::timestamptz
          and p.delivered_at is null and p.closed_at is null
        returning p.order_id, p.location_id, p.cycle_index`,
  );
}

/** One event per order for the locations that changed, with the order's status after the change. */
async function report(tx: Db, type: "order.at_risk" | "order.late", changed: ChangedPromise[]): Promise<void> {
  if (changed.length === 0) return;
  const orderIds = [...new Set(changed.map((c) => c.order_id))];
  const orderRows = await tx
    .select({ id: orders.id, orgId: orders.orgId, clientReference: orders.clientReference })
    .from(orders)
    .where(inArray(orders.id, orderIds));
  const promiseRows = await tx.select().from(deliveryPromises).where(inArray(deliveryPromises.orderId, orderIds));
  const names = await tx
    .select({ orderId: orderLocations.orderId, id: orderLocations.id, name: orderLocations.name })
    .from(orderLocations)
    .where(inArray(orderLocations.orderId, orderIds));
  const nameOf = new Map(names.map((n) => [`${n.orderId}|${n.id}`, n.name]));
  const key = (p: { orderId: string; locationId: string; cycleIndex: number }) => `${p.orderId}|${p.locationId}|${p.cycleIndex}`;
  const changedKeys = new Set(changed.map((c) => key({ orderId: c.order_id, locationId: c.location_id, cycleIndex: c.cycle_index })));
  for (const order of orderRows) {
    const own = promiseRows.filter((p) => p.orderId === order.id).sort((a, b) => a.cycleIndex - b.cycleIndex);
    const latest = new Map<string, DeliveryPromiseRow>();
    for (const p of own) latest.set(p.locationId, p);
    const status: DeliveryStatus =
      orderDeliveryStatus([...latest.values()].map((p) => ({ status: p.status, open: isOpenPromise(p) }))) ?? (type === "order.late" ? "late" : "at_risk");
    const locations = own
      .filter((p) => changedKeys.has(key(p)))
      .map((p) => ({
        location_id: p.locationId,
        name: nameOf.get(`${p.orderId}|${p.locationId}`) ?? "",
        cycle_index: p.cycleIndex,
        deliver_by: p.deliverBy.toISOString(),
        expected_take_by: p.expectedTakeBy.toISOString(),
        delivery_status: p.status,
        escalated: p.escalatedAt !== null,
      }));
    await recordEvent(tx, {
      orgId: order.orgId,
      type,
      orderId: order.id,
      data: { order_id: order.id, client_reference: order.clientReference, delivery_status: status, locations },
    });
  }
}

export async function sweepDeliveryPromises(
  ctx: Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "wakeWorkers">>,
  { now = new Date() }: SweepDeliveryPromisesOptions = {},
): Promise<SweepReport> {
  const at = now.toISOString();
  const result = await ctx.db.transaction(async (tx) => {
    const due = await lockDueOrders(tx, at);
    if (!due) return { escalatedTasks: 0, atRisk: 0, late: 0 };
    const escalated = await escalate(tx, at, due);
    const late = await markLate(tx, at, due);
    await report(tx, "order.at_risk", escalated.atRisk);
    await report(tx, "order.late", late);
    return { escalatedTasks: escalated.tasks, atRisk: escalated.atRisk.length, late: late.length };
  });
  if (result.atRisk + result.late > 0) ctx.wakeWorkers?.("webhooks");
  return result;
}
