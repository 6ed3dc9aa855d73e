// Cancel, pause and resume. Cancelling is free before any work is delivered: what was charged and
// not delivered is refunded (a one-off order becomes `cancelled`; a recurring one `ended`), and
// the order's open missions are cancelled so zoomers stop seeing them — which gives their photos
// back to the plan's quota (photosUsedSql counts live and delivered missions only). An order that
// ended still holding money for cycles that never ran (ended by an older version, or a refund the
// processor refused) is settled by cancel too: that money is refunded and the order stays ended.
import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { assignments, missions, orders, payments } from "@/lib/db/schema";
import type { Quote } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { closeOpenPromises } from "./delivery-promises";
import { getOrderRow, paymentTotals, type OrderRow } from "./order-rows";
import { assertAction, UNCONFIRMED } from "./order-states";
import { chargeInFlight, refundOrder, refundUndispatchedCycles, settleCharge, submitCharge } from "./take-payment";

/**
 * What delivered work is worth: each delivered photo at the quoted unit price (after the discount),
 * except those of a location delivered late and cancelled free of charge (already refunded).
 */
async function deliveredValueCents(tx: Db, order: OrderRow): Promise<number> {
  const quote = order.quote as Quote;
  const unitByLocation = new Map(quote.line_items.map((item) => [item.location_id, item.unit_amount_cents]));
  const factor = quote.subtotal_cents > 0 ? quote.total_cents / quote.subtotal_cents : 1;
  const rows = await tx
    .select({ locationId: assignments.locationId })
    .from(assignments)
    .where(
      and(
        eq(assignments.orderId, order.id),
        isNotNull(assignments.deliveredAt),
        sql`not exists (select 1 from delivery_promises p where p.mission_id = ${assignments.missionId} and p.cancelled_at is not null)`,
      ),
    );
  return Math.round(rows.reduce((sum, a) => sum + (unitByLocation.get(a.locationId) ?? 0) * factor, 0));
}

export async function cancelOrder(ctx: ServiceContext, { orgId, orderId: id, reason }: { orgId: string; orderId: string; reason?: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await getOrderRow(tx, orgId, id, { forUpdate: true });
    if (order.status === "ended" && (await refundUndispatchedCycles(tx, ctx, order, "cancelled")) > 0) return;
    assertAction("cancel", order.status, order.recurring !== null);
    const now = new Date();
    const recurringStarted = order.recurring !== null && (order.status === "active" || order.status === "paused");
    const cancelled = await tx
      .update(missions)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(and(eq(missions.orderId, order.id), eq(missions.status, "active")))
      .returning({ id: missions.id });
    for (const m of cancelled) ctx.missionCache.invalidate(m.id);
    await tx
      .update(assignments)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(eq(assignments.orderId, order.id), inArray(assignments.status, ["open", "reserved"])));
    await closeOpenPromises(tx, { orderId: order.id, now });

    const unconfirmed = UNCONFIRMED.includes(order.status);
    if (unconfirmed) {
      await tx
        .update(payments)
        .set({ status: "canceled", updatedAt: now })
        .where(and(eq(payments.orderId, order.id), eq(payments.status, "requires_action")));
      // A charge still out (a confirmation that crashed after charging, or one running now) is
      // settled first with the processor's answer for its key, so what it took is refunded below.
      const inFlight = await chargeInFlight(tx, order.id);
      if (inFlight) await settleCharge(tx, inFlight.id, await submitCharge(ctx, inFlight, order));
    }
    const rows = await tx.select().from(payments).where(eq(payments.orderId, order.id));
    const { charged, refunded: already } = paymentTotals(rows);
    const refunded = await refundOrder(tx, ctx, order, charged - already - (unconfirmed ? 0 : await deliveredValueCents(tx, order)));
    await tx
      .update(orders)
      .set({
        status: recurringStarted ? "ended" : "cancelled",
        statusReason: reason ? `Cancelled: ${reason}` : "Cancelled by the organisation.",
        cancelledAt: now,
        nextCycleIndex: -1,
        updatedAt: now,
      })
      .where(eq(orders.id, order.id));
    const data = { order_id: order.id, reason: reason ?? null, missions_cancelled: cancelled.length, refunded_cents: refunded, currency: order.currency };
    await recordEvent(tx, { orgId, type: "order.cancelled", orderId: order.id, data });
    if (refunded > 0)
      await recordEvent(tx, {
        orgId,
        type: "order.refunded",
        orderId: order.id,
        data: { order_id: order.id, amount_cents: refunded, currency: order.currency, reason: "cancelled" },
      });
  });
  ctx.wakeWorkers("webhooks");
}

export async function setOrderPaused(ctx: ServiceContext, { orgId, orderId: id, paused }: { orgId: string; orderId: string; paused: boolean }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await getOrderRow(tx, orgId, id, { forUpdate: true });
    assertAction(paused ? "pause" : "resume", order.status, order.recurring !== null);
    await tx
      .update(orders)
      .set({ status: paused ? "paused" : "active", statusReason: paused ? "Paused by the organisation." : null, updatedAt: new Date() })
      .where(eq(orders.id, order.id));
    await recordEvent(tx, { orgId, type: paused ? "order.paused" : "order.resumed", orderId: order.id, data: { order_id: order.id } });
  });
  ctx.wakeWorkers("webhooks");
}

/**
 * Unconfirmed orders past their expiry become `expired` (run by housekeeping). A charge still out
 * on one (a confirmation that crashed after charging) is settled with the processor's answer for
 * its key and refunded: an expired order keeps no money.
 */
export async function expireOrders(ctx: Pick<ServiceContext, "db" | "payments">, now = new Date()): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(orders)
      .where(and(inArray(orders.status, [...UNCONFIRMED]), lte(orders.expiresAt, now)))
      .for("update", { skipLocked: true });
    for (const order of due) {
      await tx.update(orders).set({ status: "expired", updatedAt: now }).where(eq(orders.id, order.id));
      await recordEvent(tx, { orgId: order.orgId, type: "order.expired", orderId: order.id, data: { order_id: order.id } });
      const inFlight = await chargeInFlight(tx, order.id);
      if (!inFlight) continue;
      const settled = await settleCharge(tx, inFlight.id, await submitCharge(ctx, inFlight, order));
      const refunded = settled?.status === "succeeded" ? await refundOrder(tx, ctx, order, settled.amountCents) : 0;
      if (refunded > 0)
        await recordEvent(tx, {
          orgId: order.orgId,
          type: "order.refunded",
          orderId: order.id,
          data: { order_id: order.id, amount_cents: refunded, currency: order.currency, reason: "expired" },
        });
    }
    return due.length;
  });
}
