// POST /orders: validates what the schema cannot (the delivery URL's target, the recurrence as a
// whole, the delivery secret), prices the order and stores it with its quote, unconfirmed. An
// order with a delivery URL gets a hidden endpoint that carries its events there.
import { eq } from "drizzle-orm";
import { orderLocations, orders, organisations, webhookEndpoints } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { Plan } from "@/lib/db/schema";
import type { CreateOrderInput, Order } from "@/lib/schemas/order";
import { newOrderExtras, serializeOrder } from "./order-rows";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { checkedUrl } from "@/lib/service/webhooks/endpoints";
import { ORDERS_BASE_PATH } from "@/lib/service/context";
import { prepareOrder, quoteOrder } from "./quote-order";

/** An unconfirmed order expires after this long (DESIGN.md: 7 days). */
export const ORDER_EXPIRY_MS = 7 * 86_400_000;

/** Creates the order and answers its representation from what was written (no read-back). */
export async function createOrder(ctx: ServiceContext, caller: { orgId: string; plan: Plan }, input: CreateOrderInput): Promise<Order> {
  const { orgId } = caller;
  const now = new Date();
  const prepared = prepareOrder(input, now);
  const webhookUrl = input.delivery?.webhook_url ? await checkedUrl(ctx, input.delivery.webhook_url, "/delivery/webhook_url") : null;
  if (webhookUrl) {
    const [org] = await ctx.db.select({ secret: organisations.orderDeliverySecret }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
    if (!org?.secret) {
      throw new ApiError(409, "delivery_secret_missing", `Create the organisation's order-delivery secret first (POST ${ORDERS_BASE_PATH}/delivery-secret): it signs what is sent to delivery.webhook_url.`, {
        errors: [{ pointer: "/delivery/webhook_url", in: "body", message: "No order-delivery secret to sign deliveries with yet." }],
      });
    }
  }
  const quote = await quoteOrder(ctx, caller, prepared, now);
  const id = createId("order");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(orders).values({
      id,
      orgId,
      clientReference: input.client_reference ?? null,
      category: input.category,
      description: input.description ?? "",
      requirements: input.requirements ?? {},
      recurring: input.recurring?.enabled ? input.recurring : null,
      delivery: webhookUrl ? { webhook_url: webhookUrl } : {},
      quote,
      currency: quote.currency,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + ORDER_EXPIRY_MS),
    }).returning();
    if (!row) throw new Error("insert returned no row");
    const locations = await tx.insert(orderLocations).values(
      prepared.locations.map((l, position) => ({
        orderId: id,
        id: l.location_id,
        position,
        name: l.name,
        lat: l.lat,
        lng: l.lng,
        timeZone: l.timeZone,
        requirements: l.requirements,
      })),
    ).returning();
    if (webhookUrl) {
      // Signed with the organisation's order-delivery secret at send time; this column is unused.
      await tx.insert(webhookEndpoints).values({ id: createId("webhook"), orgId, orderId: id, url: webhookUrl, events: ["*"], secret: "", description: `Delivery URL of ${id}` });
    }
    return serializeOrder(ctx, row, newOrderExtras(locations));
  });
}
