// The durable scheduler of recurring orders. Each recurring order has one queued job for its next
// cycle (the `orders` queue, due at the cycle's dispatch time). Running it — in one transaction
// with the order row locked — dispatches the cycle (or records why it was skipped) and queues the
// job of the cycle after. The order's `next_cycle_index` and the cycle's unique row make the job
// safe to run twice or late: a restart neither skips nor doubles a cycle.
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { orderCycles, orders, organisations } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/jobs/queue";
import type { Quote } from "@/lib/schemas/order";
import { dispatchCycle } from "./dispatch-cycle";
import { getOrderLocations, type OrderLocationRow, type OrderRow } from "./order-rows";
import { locationCycles, nextOrderCycles, orderCycleAt, type OrderCycle } from "./order-schedule";
import { PLAN_TERMS } from "./plans";
import { photosUsedThisMonth } from "./quote-order";
import { recurrenceRuleOf } from "./recurrence";
import { chargeOrder, hasPaidCycle } from "./take-payment";

export const ORDERS_QUEUE = "orders";

async function skipCycle(tx: Db, order: OrderRow, cycle: OrderCycle, reason: string, detail: string) {
  const first = cycle.windows[0]?.cycle;
  const inserted = await tx
    .insert(orderCycles)
    .values({
      orderId: order.id,
      orgId: order.orgId,
      index: cycle.index,
      status: "skipped",
      localDate: cycle.localDate,
      startsAt: new Date(first?.starts_at ?? cycle.dispatchAt),
      endsAt: new Date(first?.ends_at ?? cycle.dispatchAt),
      photos: 0,
      skipReason: reason,
    })
    .onConflictDoNothing()
    .returning({ index: orderCycles.index });
  if (inserted.length === 0) return;
  await recordEvent(tx, {
    orgId: order.orgId,
    type: "order.cycle.skipped",
    orderId: order.id,
    data: { order_id: order.id, cycle_index: cycle.index, local_date: cycle.localDate, reason, detail },
  });
}

/** Dispatches cycle `cycle` of an order whose row the caller has locked, charging it if unpaid. */
async function dispatchRecurringCycle(tx: Db, ctx: ServiceContext, order: OrderRow, locations: OrderLocationRow[], cycle: OrderCycle, now: Date) {
  const [org] = await tx.select().from(organisations).where(eq(organisations.id, order.orgId)).limit(1);
  if (!org) return;
  const quote = order.quote as Quote;
  const terms = PLAN_TERMS[org.plan];
  if (terms.photosPerMonth !== null && (await photosUsedThisMonth(tx, order.orgId, now)) + quote.photos_per_cycle > terms.photosPerMonth) {
    await skipCycle(tx, order, cycle, "quota_exceeded", `The ${terms.label} plan's ${terms.photosPerMonth} photos this month are used up.`);
    return;
  }
  if (!(await hasPaidCycle(tx, order.id, cycle.index))) {
    const payment = await chargeOrder(tx, ctx, { order, amountCents: quote.total_cents, cycleIndex: cycle.index, paymentMethod: order.paymentMethod ?? org.cardOnFile });
    if (payment.status !== "succeeded") {
      await skipCycle(tx, order, cycle, "payment_failed", payment.failureMessage ?? "The card on file needs authentication.");
      const reason = `Cycle ${cycle.index} could not be charged (${payment.failureCode ?? payment.status}); update the card on file, then resume.`;
      await tx.update(orders).set({ status: "paused", statusReason: reason, updatedAt: now }).where(eq(orders.id, order.id));
      await recordEvent(tx, {
        orgId: order.orgId,
        type: "order.payment_failed",
        orderId: order.id,
        data: { order_id: order.id, cycle_index: cycle.index, payment_id: payment.id, failure_code: payment.failureCode, failure_message: payment.failureMessage },
      });
      return;
    }
  }
  const byId = new Map(locations.map((l) => [l.id, l]));
  await dispatchCycle(tx, {
    order,
    index: cycle.index,
    deliveryHours: terms.deliveryHours,
    now,
    locations: locationCycles(cycle).flatMap(({ locationId, cycle: c }) => {
      const location = byId.get(locationId);
      return location ? [{ location, window: { localDate: c.local_date, startsAt: new Date(c.starts_at), endsAt: new Date(c.ends_at) } }] : [];
    }),
  });
}

/**
 * Runs cycle `index` of a recurring order inside the caller's transaction (order row locked):
 * dispatch or skip it, then queue the next one. Does nothing for a stale job.
 */
export async function runCycleInTx(tx: Db, ctx: ServiceContext, order: OrderRow, index: number, now = new Date()): Promise<void> {
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  if (!rule || !order.confirmedAt) return;
  if ((order.status !== "active" && order.status !== "paused") || order.nextCycleIndex !== index) return;
  const locations = await getOrderLocations(tx, order.id);
  const cycle = orderCycleAt(rule, locations, index, order.confirmedAt);
  if (cycle) {
    const lastEnd = Math.max(...cycle.windows.map((w) => Date.parse(w.cycle.ends_at)));
    if (order.status === "paused") await skipCycle(tx, order, cycle, "paused", order.statusReason ?? "The order is paused.");
    else if (lastEnd <= now.getTime()) await skipCycle(tx, order, cycle, "missed", "The cycle's window had closed before it could be dispatched.");
    else await dispatchRecurringCycle(tx, ctx, order, locations, cycle, now);
  }
  const from = cycle ? new Date(Math.min(...cycle.windows.map((w) => Date.parse(w.cycle.starts_at)))) : now;
  const [next] = nextOrderCycles(rule, locations, { from, count: 1, anchor: order.confirmedAt, afterIndex: index });
  if (!next) {
    await tx.update(orders).set({ status: "ended", statusReason: "The last cycle was dispatched.", nextCycleIndex: -1, updatedAt: now }).where(eq(orders.id, order.id));
    await recordEvent(tx, { orgId: order.orgId, type: "order.ended", orderId: order.id, data: { order_id: order.id, reason: "last_cycle" } });
    return;
  }
  await tx.update(orders).set({ nextCycleIndex: next.index, updatedAt: now }).where(eq(orders.id, order.id));
  await enqueueJob(tx, ORDERS_QUEUE, { order_id: order.id, cycle_index: next.index }, { runAt: next.dispatchAt, maxAttempts: 20 });
}

/** The job handler of the `orders` queue. */
export async function runOrderCycle(ctx: ServiceContext, orderId: string, index: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1).for("update");
    if (order) await runCycleInTx(tx, ctx, order, index);
  });
  ctx.wakeWorkers("webhooks");
}

/** The next cycle of an active or paused recurring order, for the order's representation. */
export function nextCycleOf(order: OrderRow, locations: OrderLocationRow[]) {
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  if (!rule || !order.confirmedAt || (order.status !== "active" && order.status !== "paused") || order.nextCycleIndex < 0) return null;
  const cycle = orderCycleAt(rule, locations, order.nextCycleIndex, order.confirmedAt);
  return cycle ? { index: cycle.index, local_date: cycle.localDate, dispatch_at: cycle.dispatchAt.toISOString() } : null;
}
