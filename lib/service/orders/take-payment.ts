// Charges and refunds through the payment provider, each recorded as a row with its amount.
import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ServiceContext } from "@/lib/service/context";
import type { OrderRow, PaymentRow } from "./order-rows";

export async function chargeOrder(
  tx: Db,
  ctx: ServiceContext,
  { order, amountCents, cycleIndex, paymentMethod }: { order: OrderRow; amountCents: number; cycleIndex: number; paymentMethod: string },
): Promise<PaymentRow> {
  // One key per attempt: a retried attempt (crash after the processor answered) is not charged twice.
  const [attempts] = await tx
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.kind, "charge"), eq(payments.cycleIndex, cycleIndex)));
  const outcome = await ctx.payments.charge({
    amountCents,
    currency: order.currency,
    paymentMethod,
    idempotencyKey: `${order.id}:cycle-${cycleIndex}:attempt-${attempts?.n ?? 0}`,
    description: `Photo Missions order ${order.id}${order.recurring ? `, cycle ${cycleIndex}` : ""}`,
  });
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
      status: outcome.status,
      paymentMethod,
      provider: ctx.payments.name,
      providerReference: outcome.reference,
      failureCode: outcome.status === "failed" ? outcome.failureCode : null,
      failureMessage: outcome.status === "failed" ? outcome.failureMessage : null,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

export async function hasPaidCycle(tx: Db, orderId: string, cycleIndex: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, "charge"), eq(payments.cycleIndex, cycleIndex), eq(payments.status, "succeeded")))
    .limit(1);
  return row !== undefined;
}

/** Returns `amountCents` from the order's succeeded charges, newest first; the amount refunded. */
export async function refundOrder(tx: Db, ctx: ServiceContext, order: OrderRow, amountCents: number): Promise<number> {
  if (amountCents <= 0) return 0;
  const rows = await tx.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(desc(payments.createdAt));
  const refundedFrom = new Map<string, number>();
  for (const r of rows) if (r.kind === "refund" && r.status === "succeeded" && r.refundOf) refundedFrom.set(r.refundOf, (refundedFrom.get(r.refundOf) ?? 0) + r.amountCents);
  let left = amountCents;
  for (const charge of rows) {
    if (left <= 0) break;
    if (charge.kind !== "charge" || charge.status !== "succeeded" || !charge.providerReference) continue;
    const refundable = charge.amountCents - (refundedFrom.get(charge.id) ?? 0);
    const amount = Math.min(left, refundable);
    if (amount <= 0) continue;
    const id = createId("refund");
    const outcome = await ctx.payments.refund({ chargeReference: charge.providerReference, amountCents: amount, idempotencyKey: id });
    await tx.insert(payments).values({
      id,
      orgId: order.orgId,
      orderId: order.id,
      kind: "refund",
      cycleIndex: charge.cycleIndex,
      amountCents: amount,
      currency: charge.currency,
      status: outcome.status,
      paymentMethod: charge.paymentMethod,
      provider: ctx.payments.name,
      providerReference: outcome.reference,
      refundOf: charge.id,
    });
    if (outcome.status === "succeeded") left -= amount;
  }
  return amountCents - left;
}
