// What happens to a location's delivery promise besides the sweep (./sweep-delivery-promises.ts):
// delivery settles it on time or late, giving the location up or cancelling its order closes it.
// Each runs inside the caller's transaction, beside the change that causes it.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { deliveryPromises } from "@/lib/db/schema";
import { deliveredStatus } from "@/lib/orders/delivery-promise";

/** The mission's location was delivered at `now`: on time, or late (after deliver_by, or once the sweep had found it late). */
export async function markLocationDelivered(tx: Db, { missionId, now }: { missionId: string; now: Date }): Promise<void> {
  const [promise] = await tx
    .select()
    .from(deliveryPromises)
    .where(and(eq(deliveryPromises.missionId, missionId), isNull(deliveryPromises.deliveredAt)))
    .limit(1)
    .for("update");
  if (!promise) return;
  await tx
    .update(deliveryPromises)
    .set({ deliveredAt: now, status: deliveredStatus({ status: promise.status, deliverBy: promise.deliverBy, deliveredAt: now }), updatedAt: now })
    .where(eq(deliveryPromises.missionId, missionId));
}

/** Promises no longer open (a location given up, an order cancelled): the sweep leaves them, their status stays as it was. */
export async function closeOpenPromises(tx: Db, { orderId, missionId, now }: { orderId: string; missionId?: string; now: Date }): Promise<void> {
  await tx
    .update(deliveryPromises)
    .set({ closedAt: now, updatedAt: now })
    .where(
      and(
        eq(deliveryPromises.orderId, orderId),
        missionId === undefined ? undefined : eq(deliveryPromises.missionId, missionId),
        isNull(deliveryPromises.deliveredAt),
        isNull(deliveryPromises.closedAt),
      ),
    );
}
