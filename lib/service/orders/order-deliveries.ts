// The delivery log of an order's webhook URL (the order's own hidden endpoint, created with the
// order when it has a delivery URL), read and retried through the webhooks module.
import { eq } from "drizzle-orm";
import { webhookEndpoints } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { notFound } from "@/lib/service/errors";
import { listDeliveries, redeliver } from "@/lib/service/webhooks/deliveries";
import { getOrderRow } from "./order-rows";

async function orderEndpointId(ctx: ServiceContext, options: { orgId: string; orderId: string }): Promise<string | null> {
  await getOrderRow(ctx.db, options.orgId, options.orderId);
  const [row] = await ctx.db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.orderId, options.orderId)).limit(1);
  return row?.id ?? null;
}

/** Deliveries to the order's webhook URL, newest first; an order without one has none. */
export async function listOrderDeliveries(ctx: ServiceContext, options: { orgId: string; orderId: string; status?: string; page: number; perPage: number }) {
  const { orgId, orderId, status, page, perPage } = options;
  const endpointId = await orderEndpointId(ctx, { orgId, orderId });
  if (!endpointId) return { data: [], meta: { total: 0, page, per_page: perPage } };
  return listDeliveries(ctx, orgId, endpointId, { status, page, perPage }, "order");
}

/** One more attempt of a delivery to the order's webhook URL. */
export async function redeliverOrderDelivery(ctx: ServiceContext, options: { orgId: string; orderId: string; deliveryId: string }) {
  const endpointId = await orderEndpointId(ctx, options);
  if (!endpointId) throw notFound("delivery");
  return redeliver(ctx, options.orgId, endpointId, options.deliveryId, "order");
}
