// POST /orders/{id}/confirm: checks the plan's monthly quota, charges the order (a recurring order:
// its first cycle) through the payment provider and, once paid, dispatches it — a one-off order's
// missions at once, a recurring order's first cycle when it is due. A declined card leaves the
// order `payment_failed` (confirm again); a card that needs authentication leaves it
// `payment_action_required` until the customer authenticates.
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { orders, organisations, payments } from "@/lib/db/schema";
import type { Quote } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/jobs/queue";
import { isTestPaymentMethod } from "@/lib/service/payments/test-card-processor";
import { dispatchCycle } from "./dispatch-cycle";
import { getOrderLocations, getOrderRow, type OrderRow, type PaymentRow } from "./order-rows";
import { nextOrderCycles } from "./order-schedule";
import { assertAction } from "./order-states";
import { PLAN_TERMS } from "./plans";
import { photosUsedThisMonth } from "./quote-order";
import { recurrenceRuleOf } from "./recurrence";
import { ORDERS_QUEUE, pausesInExtremeWeather, runCycleInTx } from "./run-order-cycle";
import { chargeOrder } from "./take-payment";

async function lockedOrg(tx: Db, orgId: string) {
  // Locking the organisation serialises confirmations of its orders: the quota check and the
  // dispatch that uses the quota cannot interleave with another confirmation's.
  const [org] = await tx.select().from(organisations).where(eq(organisations.id, orgId)).limit(1).for("update");
  if (!org) throw notFound("organisation");
  return org;
}

async function expireIfDue(tx: Db, order: OrderRow, now: Date): Promise<void> {
  if (order.expiresAt > now) return;
  await tx.update(orders).set({ status: "expired", updatedAt: now }).where(eq(orders.id, order.id));
  await recordEvent(tx, { orgId: order.orgId, type: "order.expired", orderId: order.id, data: { order_id: order.id } });
  throw new ApiError(409, "order_expired", `The order was not confirmed within 7 days and expired at ${order.expiresAt.toISOString()}; create it again.`);
}

/** Paid: mark the order confirmed and dispatch it. Caller holds the order's and org's locks. */
async function activate(tx: Db, ctx: ServiceContext, order: OrderRow, payment: PaymentRow, now: Date): Promise<void> {
  const [org] = await tx.select().from(organisations).where(eq(organisations.id, order.orgId)).limit(1);
  if (!org) throw notFound("organisation");
  const terms = PLAN_TERMS[org.plan];
  await recordEvent(tx, {
    orgId: order.orgId,
    type: "order.confirmed",
    orderId: order.id,
    data: { order_id: order.id, client_reference: order.clientReference, payment_id: payment.id, amount_cents: payment.amountCents, currency: payment.currency },
  });
  const locations = await getOrderLocations(tx, order.id);
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  if (!rule) {
    await tx.update(orders).set({ status: "confirmed", confirmedAt: now, updatedAt: now }).where(eq(orders.id, order.id));
    await dispatchCycle(tx, { order, index: 0, deliveryHours: terms.deliveryHours, now, locations: locations.map((location) => ({ location, window: null })) });
    await tx.update(orders).set({ status: "in_progress", updatedAt: now }).where(eq(orders.id, order.id));
    return;
  }
  const first = nextOrderCycles(rule, locations, { from: now, count: 1, anchor: now })[0];
  if (!first) {
    await tx.update(orders).set({ status: "ended", statusReason: "No cycle of the schedule is left.", confirmedAt: now, updatedAt: now }).where(eq(orders.id, order.id));
    return;
  }
  // The first cycle was paid above, under the cycle number it will have.
  await tx.update(payments).set({ cycleIndex: first.index }).where(eq(payments.id, payment.id));
  const [active] = await tx
    .update(orders)
    .set({ status: "active", confirmedAt: now, nextCycleIndex: first.index, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning();
  if (!active) throw notFound("order");
  // A first cycle due now is dispatched here, unless its forecast must be read first: the worker
  // does that at once, so a confirmation never waits on a weather service.
  if (first.dispatchAt <= now && !pausesInExtremeWeather(active)) await runCycleInTx(tx, ctx, active, first.index, now);
  else await enqueueJob(tx, ORDERS_QUEUE, { order_id: order.id, cycle_index: first.index }, { runAt: first.dispatchAt, maxAttempts: 20 });
}

export async function confirmOrder(ctx: ServiceContext, orgId: string, id: string, input: { payment_method: "card"; payment_method_id?: string }): Promise<void> {
  if (input.payment_method_id !== undefined && !(ctx.payments.testMode && isTestPaymentMethod(input.payment_method_id))) {
    throw new ApiError(422, "validation_failed", "payment_method_id names a test payment method and works in test mode only.", {
      errors: [{ pointer: "/payment_method_id", in: "body", message: "Use one of the documented test payment methods, or leave it out to charge the card on file." }],
    });
  }
  await ctx.db.transaction(async (tx) => {
    const org = await lockedOrg(tx, orgId);
    const order = await getOrderRow(tx, orgId, id, { forUpdate: true });
    assertAction("confirm", order.status, order.recurring !== null);
    const now = new Date();
    await expireIfDue(tx, order, now);
    const quote = order.quote as Quote;
    const terms = PLAN_TERMS[org.plan];
    if (terms.photosPerMonth !== null) {
      const used = await photosUsedThisMonth(tx, orgId, now);
      if (used + quote.photos_per_cycle > terms.photosPerMonth) {
        throw new ApiError(
          402,
          "plan_quota_exceeded",
          `The ${terms.label} plan allows ${terms.photosPerMonth} photos per calendar month; ${used} are used this month and this order needs ${quote.photos_per_cycle}. Upgrade the plan or wait until next month.`,
        );
      }
    }
    const paymentMethod = input.payment_method_id ?? org.cardOnFile;
    await tx.update(orders).set({ paymentMethod }).where(eq(orders.id, order.id));
    const payment = await chargeOrder(tx, ctx, { order, amountCents: quote.total_cents, cycleIndex: 0, paymentMethod });
    if (payment.status === "succeeded") return activate(tx, ctx, { ...order, paymentMethod }, payment, now);
    const requiresAction = payment.status === "requires_action";
    await tx
      .update(orders)
      .set({
        status: requiresAction ? "payment_action_required" : "payment_failed",
        statusReason: requiresAction ? "The card needs the customer's authentication; see the payment's next_action." : payment.failureMessage,
        updatedAt: now,
      })
      .where(eq(orders.id, order.id));
    await recordEvent(tx, {
      orgId,
      type: requiresAction ? "order.payment_action_required" : "order.payment_failed",
      orderId: order.id,
      data: { order_id: order.id, payment_id: payment.id, failure_code: payment.failureCode, failure_message: payment.failureMessage },
    });
  });
  ctx.wakeWorkers("webhooks");
}

/**
 * Test mode: completes (or fails) the card authentication a charge is waiting for, as the
 * customer would on their bank's page; a real processor reports it by its own webhook.
 */
export async function authenticatePayment(ctx: ServiceContext, orgId: string, orderId: string, paymentId: string, authenticated: boolean): Promise<void> {
  if (!ctx.payments.testMode) throw new ApiError(404, "not_found", "Card authentication happens at the card processor in live mode.");
  await ctx.db.transaction(async (tx) => {
    await lockedOrg(tx, orgId);
    const order = await getOrderRow(tx, orgId, orderId, { forUpdate: true });
    const [payment] = await tx.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.orderId, order.id))).limit(1);
    if (!payment) throw notFound("payment");
    assertAction("authenticate_payment", order.status, order.recurring !== null);
    if (payment.status !== "requires_action" || !payment.providerReference) {
      throw new ApiError(409, "payment_not_awaiting_action", `The payment is ${payment.status}; only a payment that requires action can be authenticated.`);
    }
    const outcome = await ctx.payments.completeAuthentication(payment.providerReference, authenticated);
    const now = new Date();
    const [settled] = await tx
      .update(payments)
      .set({
        status: outcome.status === "succeeded" ? "succeeded" : "failed",
        failureCode: outcome.status === "failed" ? outcome.failureCode : null,
        failureMessage: outcome.status === "failed" ? outcome.failureMessage : null,
        updatedAt: now,
      })
      .where(eq(payments.id, payment.id))
      .returning();
    if (!settled) throw notFound("payment");
    if (settled.status === "succeeded") return activate(tx, ctx, order, settled, now);
    await tx.update(orders).set({ status: "payment_failed", statusReason: settled.failureMessage, updatedAt: now }).where(eq(orders.id, order.id));
    await recordEvent(tx, {
      orgId,
      type: "order.payment_failed",
      orderId: order.id,
      data: { order_id: order.id, payment_id: settled.id, failure_code: settled.failureCode, failure_message: settled.failureMessage },
    });
  });
  ctx.wakeWorkers("webhooks");
}
