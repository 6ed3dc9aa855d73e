// POST /orders/{id}/locations/{location_id}/cancel: a location that broke its promise — still late,
// or delivered late — is cancelled by the partner free of charge: its price for the cycle is
// refunded through the order's payments (as a given-up location's is), once. Under the order's row
// lock, so a second call (or one at the same moment) finds it cancelled and answers the same,
// refunding nothing more. Still undelivered, its mission and open tasks are cancelled too; delivered,
// the photos stay the partner's. A location on time is refused (409 `location_not_late`).
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { assignments, deliveryPromises, missions, orderLocations, orders, payments } from "@/lib/db/schema";
import { mayCancelFree } from "@/lib/orders/delivery-promise";
import type { Quote } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { completeIfDone } from "./deliver-location";
import { getOrderRow, type DeliveryPromiseRow, type OrderRow } from "./order-rows";
import { refundOrder } from "./take-payment";

export interface CancelLateLocationOptions {
  orgId: string;
  orderId: string;
  locationId: string;
  /** Recurring orders: which cycle's location; default its latest dispatched one. */
  cycleIndex?: number;
  reason?: string;
}

async function lockedPromise(
  tx: Db,
  { orderId, locationId, cycleIndex }: Pick<CancelLateLocationOptions, "orderId" | "locationId" | "cycleIndex">,
): Promise<DeliveryPromiseRow | undefined> {
  const [row] = await tx
    .select()
    .from(deliveryPromises)
    .where(
      and(
        eq(deliveryPromises.orderId, orderId),
        eq(deliveryPromises.locationId, locationId),
        cycleIndex === undefined ? undefined : eq(deliveryPromises.cycleIndex, cycleIndex),
      ),
    )
    .orderBy(desc(deliveryPromises.cycleIndex))
    .limit(1)
    .for("update");
  return row;
}

/** The location's price for one cycle as charged (after the recurring discount); 0 when that cycle was never paid. */
async function locationPriceCents(tx: Db, order: OrderRow, promise: DeliveryPromiseRow): Promise<number> {
  const quote = order.quote as Quote;
  const item = quote.line_items.find((l) => l.location_id === promise.locationId);
  if (!item) return 0;
  const [paid] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.kind, "charge"), eq(payments.status, "succeeded"), eq(payments.cycleIndex, promise.cycleIndex)))
    .limit(1);
  if (!paid) return 0;
  const factor = quote.subtotal_cents > 0 ? quote.total_cents / quote.subtotal_cents : 1;
  return Math.round(item.amount_cents * factor);
}

export async function cancelLateLocation(ctx: ServiceContext, options: CancelLateLocationOptions): Promise<void> {
  const { orgId, orderId, locationId, reason } = options;
  const cancelledMissions: string[] = [];
  await ctx.db.transaction(async (tx) => {
    // The order's lock serialises every change of its money: two cancels of one location wait here.
    const order = await getOrderRow(tx, orgId, orderId, { forUpdate: true });
    const [location] = await tx
      .select({ id: orderLocations.id })
      .from(orderLocations)
      .where(and(eq(orderLocations.orderId, order.id), eq(orderLocations.id, locationId)))
      .limit(1);
    if (!location) throw notFound("location");
    const promise = await lockedPromise(tx, options);
    if (!promise) {
      throw new ApiError(
        409,
        "location_not_dispatched",
        `Location ${locationId}${options.cycleIndex === undefined ? "" : ` (cycle ${options.cycleIndex})`} has not been dispatched, so it has no promise to break.`,
      );
    }
    if (promise.cancelledAt) return; // cancelled before: the same answer, nothing refunded again
    if (promise.closedAt && !promise.deliveredAt) {
      throw new ApiError(409, "location_closed", "The location was given up or cancelled with its order, and its price refunded then.");
    }
    if (!mayCancelFree(promise.status)) {
      throw new ApiError(
        409,
        "location_not_late",
        `The location is ${promise.status} (promised by ${promise.deliverBy.toISOString()}): only a location still late, or delivered late, can be cancelled free of charge.`,
      );
    }
    const now = new Date();
    if (!promise.deliveredAt) {
      const cancelled = await tx
        .update(missions)
        .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
        .where(and(eq(missions.id, promise.missionId), eq(missions.status, "active")))
        .returning({ id: missions.id });
      cancelledMissions.push(...cancelled.map((m) => m.id));
      await tx
        .update(assignments)
        .set({ status: "cancelled", updatedAt: now })
        .where(and(eq(assignments.missionId, promise.missionId), inArray(assignments.status, ["open", "reserved"])));
    }
    const refunded = await refundOrder(tx, ctx, order, await locationPriceCents(tx, order, promise));
    await tx
      .update(deliveryPromises)
      .set({ cancelledAt: now, closedAt: promise.closedAt ?? now, refundedCents: refunded, updatedAt: now })
      .where(
        and(eq(deliveryPromises.orderId, order.id), eq(deliveryPromises.locationId, promise.locationId), eq(deliveryPromises.cycleIndex, promise.cycleIndex)),
      );
    await tx.update(orders).set({ updatedAt: now }).where(eq(orders.id, order.id));
    if (refunded > 0) {
      await recordEvent(tx, {
        orgId,
        type: "order.refunded",
        orderId: order.id,
        data: {
          order_id: order.id,
          amount_cents: refunded,
          currency: order.currency,
          reason: "late_location_cancelled",
          location_id: promise.locationId,
          cycle_index: promise.cycleIndex,
          detail: reason ?? null,
        },
      });
    }
    if (!promise.deliveredAt) await completeIfDone(tx, ctx, order.id, promise.cycleIndex, now);
  });
  for (const id of cancelledMissions) ctx.missionCache.invalidate(id);
  ctx.wakeWorkers("webhooks");
}
