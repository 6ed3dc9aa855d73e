// Charges and refunds through the payment provider, each recorded as a row with its amount.
//
// A charge is a record first and a call second: `openCharge` writes it `processing` (its id is the
// processor's idempotency key), `submitCharge` asks the processor — outside any transaction when
// the caller can, so no lock waits on a card network — and `settleCharge` writes the outcome once.
// A crash after the processor answered leaves the record `processing`; submitting the same record
// again gets the same answer from the processor, never a second charge.
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { orderCycles, payments } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import type { ChargeOutcome } from "@/lib/service/payments/payment-provider";
import type { OrderRow, PaymentRow } from "./order-rows";

export interface ChargeOptions {
  order: OrderRow;
  amountCents: number;
  cycleIndex: number;
  paymentMethod: string;
}

/** Records a charge about to be asked of the processor (`processing`). */
export async function openCharge(tx: Db, ctx: ServiceContext, { order, amountCents, cycleIndex, paymentMethod }: ChargeOptions): Promise<PaymentRow> {
  const [row] = await tx
    .insert(payments)
    .values({
      id: createId("payment"),
      orgId: order.orgId,
      orderId: order.id,
      kind: "charge",
      cycleIndex,
      amountCents,
      currency: order.currency,
      status: "processing",
      paymentMethod,
      provider: ctx.payments.name,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** Asks the processor for a recorded charge; by default the record's id (committed before the call) is the idempotency key. */
export function submitCharge(
  ctx: Pick<ServiceContext, "payments">,
  payment: PaymentRow,
  order: Pick<OrderRow, "id" | "recurring">,
  idempotencyKey = payment.id,
): Promise<ChargeOutcome> {
  return ctx.payments.charge({
    amountCents: payment.amountCents,
    currency: payment.currency,
    paymentMethod: payment.paymentMethod,
    idempotencyKey,
    description: `Photo Missions order ${order.id}${order.recurring ? `, cycle ${payment.cycleIndex ?? 0}` : ""}`,
  });
}

/** Writes the processor's answer on a `processing` record; null when another caller settled it first. */
export async function settleCharge(tx: Db, paymentId: string, outcome: ChargeOutcome): Promise<PaymentRow | null> {
  const [row] = await tx
    .update(payments)
    .set({
      status: outcome.status,
      providerReference: outcome.reference,
      failureCode: outcome.status === "failed" ? outcome.failureCode : null,
      failureMessage: outcome.status === "failed" ? outcome.failureMessage : null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "processing")))
    .returning();
  return row ?? null;
}

/** The order's charge that was recorded but not yet settled (a confirmation in flight, or one that crashed). */
export async function chargeInFlight(tx: Db, orderId: string): Promise<PaymentRow | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, "charge"), eq(payments.status, "processing")))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row ?? null;
}

/** Record, submit and settle in one go, inside the caller's transaction (a recurring cycle's charge, run by the worker). */
export async function chargeOrder(tx: Db, ctx: ServiceContext, options: ChargeOptions): Promise<PaymentRow> {
  // The record rolls back with the caller's transaction, so the key is one that survives it: one per
  // attempt, counted from what was committed. A retried attempt (crash after the processor answered)
  // is not charged twice.
  const [attempts] = await tx
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.orderId, options.order.id), eq(payments.kind, "charge"), eq(payments.cycleIndex, options.cycleIndex)));
  const opened = await openCharge(tx, ctx, options);
  const key = `${options.order.id}:cycle-${options.cycleIndex}:attempt-${attempts?.n ?? 0}`;
  const settled = await settleCharge(tx, opened.id, await submitCharge(ctx, opened, options.order, key));
  if (!settled) throw new Error(`charge ${opened.id} was settled by someone else`);
  return settled;
}

export async function hasPaidCycle(tx: Db, orderId: string, cycleIndex: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, "charge"), eq(payments.cycleIndex, cycleIndex), eq(payments.status, "succeeded")))
    .limit(1);
  return row !== undefined;
}

/** Returns `amountCents` (at most) of one succeeded charge; the amount refunded (0 when the processor refused). */
async function refundCharge(tx: Db, ctx: Pick<ServiceContext, "payments">, order: OrderRow, charge: PaymentRow, amountCents: number): Promise<number> {
  if (amountCents <= 0 || !charge.providerReference) return 0;
  const id = createId("refund");
  const outcome = await ctx.payments.refund({ chargeReference: charge.providerReference, amountCents, idempotencyKey: id });
  await tx.insert(payments).values({
    id,
    orgId: order.orgId,
    orderId: order.id,
    kind: "refund",
    cycleIndex: charge.cycleIndex,
    amountCents,
    currency: charge.currency,
    status: outcome.status,
    paymentMethod: charge.paymentMethod,
    provider: ctx.payments.name,
    providerReference: outcome.reference,
    refundOf: charge.id,
  });
  return outcome.status === "succeeded" ? amountCents : 0;
}

/** Returns `amountCents` from the order's succeeded charges, newest first; the amount refunded. */
export async function refundOrder(tx: Db, ctx: Pick<ServiceContext, "payments">, order: OrderRow, amountCents: number): Promise<number> {
  if (amountCents <= 0) return 0;
  const rows = await tx.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(desc(payments.createdAt));
  const refundedFrom = new Map<string, number>();
  for (const r of rows)
    if (r.kind === "refund" && r.status === "succeeded" && r.refundOf) refundedFrom.set(r.refundOf, (refundedFrom.get(r.refundOf) ?? 0) + r.amountCents);
  let left = amountCents;
  for (const charge of rows) {
    if (left <= 0) break;
    if (charge.kind !== "charge" || charge.status !== "succeeded" || !charge.providerReference) continue;
    const refundable = charge.amountCents - (refundedFrom.get(charge.id) ?? 0);
    const amount = Math.min(left, refundable);
    if (amount <= 0) continue;
    left -= await refundCharge(tx, ctx, order, charge, amount);
  }
  return amountCents - left;
}

/**
 * Money an order holds for cycles that never ran: each succeeded charge whose cycle has no
 * dispatched row is refunded in full (what is left of it), with `order.refunded`. Called wherever
 * an order ends, so an order that ends without dispatching keeps nothing; returns the amount refunded.
 */
export async function refundUndispatchedCycles(tx: Db, ctx: ServiceContext, order: OrderRow, reason: string): Promise<number> {
  const rows = await tx.select().from(payments).where(eq(payments.orderId, order.id));
  const dispatched = new Set(
    (
      await tx
        .select({ index: orderCycles.index })
        .from(orderCycles)
        .where(and(eq(orderCycles.orderId, order.id), eq(orderCycles.status, "dispatched")))
    ).map((c) => c.index),
  );
  let refunded = 0;
  for (const charge of rows) {
    if (charge.kind !== "charge" || charge.status !== "succeeded" || dispatched.has(charge.cycleIndex ?? 0)) continue;
    const already = rows.filter((r) => r.kind === "refund" && r.status === "succeeded" && r.refundOf === charge.id).reduce((sum, r) => sum + r.amountCents, 0);
    refunded += await refundCharge(tx, ctx, order, charge, charge.amountCents - already);
  }
  if (refunded > 0)
    await recordEvent(tx, {
      orgId: order.orgId,
      type: "order.refunded",
      orderId: order.id,
      data: { order_id: order.id, amount_cents: refunded, currency: order.currency, reason },
    });
  return refunded;
}
