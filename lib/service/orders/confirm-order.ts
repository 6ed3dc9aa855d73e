// POST /orders/{id}/confirm: checks the plan's monthly quota, charges the order (a recurring order:
// its first cycle) through the payment provider and, once paid, dispatches it — a one-off order's
// missions at once, a recurring order's first cycle when it is due. A declined card leaves the
// order `payment_failed` (confirm again); a card that needs authentication leaves it
// `payment_action_required` until the customer authenticates.
//
// Three steps, so that no lock is held while a card network answers:
// 1. Under the organisation's and the order's row locks: the order's state, its expiry (an
//    expired order is committed `expired`, then answered 409), its first cycle (none left: 409
//    `no_cycle_left`, nothing charged), the quota, and the charge's record written `processing`.
//    The organisation's lock serialises this with every other confirmation of the organisation,
//    and the `processing` record holds the order's photos in the quota (photosUsedSql) until it is
//    settled — so the quota check stays race-free without holding the lock across the charge.
// 2. No lock: the processor is asked, with the record's id as the idempotency key.
// 3. Under the same locks again: the record is settled once (whoever comes second finds it settled
//    and does nothing), and the paid order activated — its first cycle decided again, and if none
//    is left by now, the charge refunded and the order ended. An order cancelled meanwhile has the
//    charge refunded.
// A second confirm while a record is young answers 409 `payment_in_progress`; once it is older
// than a processor call can take, the record is taken as left by a crash between steps 2 and 3
// and resumed: the same key gets the processor's first answer, never a second charge.
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { orders, organisations, payments } from "@/lib/db/schema";
import type { Quote } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/queue/queue";
import type { ChargeOutcome } from "@/lib/service/payments/payment-provider";
import { isTestPaymentMethod } from "@/lib/service/payments/test-card-processor";
import { dispatchCycle } from "./cycles/dispatch-cycle";
import { getOrderLocations, getOrderRow, type OrderRow, type PaymentRow } from "./order-rows";
import { nextOrderCycles } from "./cycles/order-cycles";
import { assertAction, canDo } from "./order-states";
import { PLAN_TERMS } from "./plans";
import { photosUsedThisMonth } from "./quote-order";
import { recurrenceRuleOf } from "./cycles/recurrence-rule-of";
import { ORDERS_QUEUE, pausesInExtremeWeather, runCycleInTx } from "./cycles/run-due-cycle";
import { chargeInFlight, openCharge, refundUndispatchedCycles, settleCharge, submitCharge } from "./take-payment";

/** A charge record younger than this is a confirmation still talking to the processor; older, one that crashed. */
export const CHARGE_IN_FLIGHT_MS = 60_000;

async function lockedOrg(tx: Db, orgId: string) {
  // Locking the organisation serialises confirmations of its orders: the quota check and what
  // holds or uses the quota (the charge record, the dispatch) cannot interleave with another's.
  const [org] = await tx.select().from(organisations).where(eq(organisations.id, orgId)).limit(1).for("update");
  if (!org) throw notFound("organisation");
  return org;
}

function expiredProblem(order: OrderRow): ApiError {
  return new ApiError(409, "order_expired", `The order was not confirmed within 7 days and expired at ${order.expiresAt.toISOString()}; create it again.`);
}

/** Marks an unconfirmed order past its expiry `expired` (the caller commits, then answers 409); false when not due. */
async function expireIfDue(tx: Db, order: OrderRow, now: Date): Promise<boolean> {
  if (order.expiresAt > now) return false;
  await tx.update(orders).set({ status: "expired", updatedAt: now }).where(eq(orders.id, order.id));
  await recordEvent(tx, { orgId: order.orgId, type: "order.expired", orderId: order.id, data: { order_id: order.id } });
  return true;
}

/** The recurring order's first cycle if it were confirmed at `now`; undefined when none is left; null for a one-off order. */
async function firstCycleOf(tx: Db, order: OrderRow, now: Date) {
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  if (!rule) return null;
  return nextOrderCycles(rule, await getOrderLocations(tx, order.id), { from: now, count: 1, anchor: now })[0];
}

function noCycleLeftProblem(): ApiError {
  return new ApiError(
    409,
    "no_cycle_left",
    "No cycle of the order's schedule is left to run (its dates or season have passed); nothing was charged. Cancel it and create it again with dates to come.",
  );
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
    data: {
      order_id: order.id,
      client_reference: order.clientReference,
      payment_id: payment.id,
      amount_cents: payment.amountCents,
      currency: payment.currency,
    },
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
    // Step 1 found a cycle, but its window closed while the card was charged: nothing will run,
    // so nothing is kept.
    await tx
      .update(orders)
      .set({
        status: "ended",
        statusReason: "No cycle of the schedule is left; the charge was refunded.",
        confirmedAt: now,
        nextCycleIndex: -1,
        updatedAt: now,
      })
      .where(eq(orders.id, order.id));
    await endWithRefund(tx, ctx, order, "no_cycle_left");
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

/** An order that ended (or never started) keeps no money for cycles that never ran. */
async function endWithRefund(tx: Db, ctx: ServiceContext, order: OrderRow, reason: string): Promise<void> {
  await recordEvent(tx, { orgId: order.orgId, type: "order.ended", orderId: order.id, data: { order_id: order.id, reason } });
  await refundUndispatchedCycles(tx, ctx, order, reason);
}

/** Step 1's answer: a charge record to submit, or an expiry committed that is answered 409. */
type Begun = { kind: "charge"; order: OrderRow; payment: PaymentRow } | { kind: "expired"; order: OrderRow };

async function beginConfirmation(tx: Db, orgId: string, id: string, ctx: ServiceContext, paymentMethodId: string | undefined, now: Date): Promise<Begun> {
  const org = await lockedOrg(tx, orgId);
  const order = await getOrderRow(tx, orgId, id, { forUpdate: true });
  assertAction("confirm", order.status, order.recurring !== null);
  const inFlight = await chargeInFlight(tx, order.id);
  if (inFlight) {
    if (now.getTime() - inFlight.createdAt.getTime() < CHARGE_IN_FLIGHT_MS) {
      throw new ApiError(409, "payment_in_progress", "A confirmation of this order is being charged right now; read the order in a few seconds.", {
        headers: { "Retry-After": "5" },
      });
    }
    return { kind: "charge", order, payment: inFlight };
  }
  if (await expireIfDue(tx, order, now)) return { kind: "expired", order };
  const first = await firstCycleOf(tx, order, now);
  if (first === undefined) throw noCycleLeftProblem();
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
  const paymentMethod = paymentMethodId ?? org.cardOnFile;
  await tx.update(orders).set({ paymentMethod }).where(eq(orders.id, order.id));
  const payment = await openCharge(tx, ctx, { order, amountCents: quote.total_cents, cycleIndex: first?.index ?? 0, paymentMethod });
  return { kind: "charge", order: { ...order, paymentMethod }, payment };
}

/** Step 3: the processor's answer recorded once, and the order moved on by it. */
async function settleConfirmation(tx: Db, ctx: ServiceContext, orgId: string, orderId: string, paymentId: string, outcome: ChargeOutcome): Promise<void> {
  await lockedOrg(tx, orgId);
  const order = await getOrderRow(tx, orgId, orderId, { forUpdate: true });
  const payment = await settleCharge(tx, paymentId, outcome);
  if (!payment) return; // another confirmation settled it first
  const now = new Date();
  if (!canDo("confirm", order.status)) {
    // Cancelled or expired while the card was charged (both settle a charge still out themselves;
    // this is the defence behind them): the order will not run, the money goes back.
    await refundUndispatchedCycles(tx, ctx, order, order.status);
    return;
  }
  await settlePayment(tx, ctx, order, payment, now);
}

/** A settled charge of an order waiting for it: activate, or record why it was not paid. */
async function settlePayment(tx: Db, ctx: ServiceContext, order: OrderRow, payment: PaymentRow, now: Date): Promise<void> {
  if (payment.status === "succeeded") return activate(tx, ctx, order, payment, now);
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
    orgId: order.orgId,
    type: requiresAction ? "order.payment_action_required" : "order.payment_failed",
    orderId: order.id,
    data: { order_id: order.id, payment_id: payment.id, failure_code: payment.failureCode, failure_message: payment.failureMessage },
  });
}

export interface ConfirmOrderOptions {
  orgId: string;
  orderId: string;
  /** Test mode: a documented test payment method instead of the organisation's card on file. */
  paymentMethodId?: string;
}

export async function confirmOrder(ctx: ServiceContext, { orgId, orderId: id, paymentMethodId }: ConfirmOrderOptions): Promise<void> {
  if (paymentMethodId !== undefined && !(ctx.payments.testMode && isTestPaymentMethod(paymentMethodId))) {
    throw new ApiError(422, "validation_failed", "payment_method_id names a test payment method and works in test mode only.", {
      errors: [
        { pointer: "/payment_method_id", in: "body", message: "Use one of the documented test payment methods, or leave it out to charge the card on file." },
      ],
    });
  }
  const begun = await ctx.db.transaction((tx) => beginConfirmation(tx, orgId, id, ctx, paymentMethodId, new Date()));
  if (begun.kind === "expired") {
    ctx.wakeWorkers("webhooks");
    throw expiredProblem(begun.order);
  }
  const outcome = await submitCharge(ctx, begun.payment, begun.order);
  await ctx.db.transaction((tx) => settleConfirmation(tx, ctx, orgId, id, begun.payment.id, outcome));
  ctx.wakeWorkers("webhooks");
}

/**
 * Test mode: completes (or fails) the card authentication a charge is waiting for, as the
 * customer would on their bank's page; a real processor reports it by its own webhook.
 */
export async function authenticatePayment(
  ctx: ServiceContext,
  { orgId, orderId, paymentId, authenticated }: { orgId: string; orderId: string; paymentId: string; authenticated: boolean },
): Promise<void> {
  if (!ctx.payments.testMode) throw new ApiError(404, "not_found", "Card authentication happens at the card processor in live mode.");
  await ctx.db.transaction(async (tx) => {
    await lockedOrg(tx, orgId);
    const order = await getOrderRow(tx, orgId, orderId, { forUpdate: true });
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.orderId, order.id)))
      .limit(1);
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
