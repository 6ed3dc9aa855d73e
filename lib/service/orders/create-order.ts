// POST /orders: validates what the schema cannot (the delivery URL's target, the recurrence as a
// whole, the delivery secret), prices the order and stores it with its quote, unconfirmed. An
// order with a delivery URL gets a hidden endpoint that carries its events there.
import { and, eq, isNull } from "drizzle-orm";
import { orderDrafts, orderLocations, orders, organisations, webhookEndpoints } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { preparedInsert } from "@/lib/db/prepared-insert";
import { createId } from "@/lib/ids/create-id";
import type { Plan } from "@/lib/db/schema";
import type { CreateOrderInput, Order } from "@/lib/schemas/order";
import { newOrderExtras, serializeOrder, type OrderLocationRow, type OrderRow } from "./order-rows";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { ORDERS_BASE_PATH } from "@/lib/service/context";
import { checkedDeliveryUrl } from "./check-delivery-url";
import { prepareOrder, quoteOrder } from "./quote-order";

/** The order's rows, prepared: every create writes them (lib/db/prepared-insert.ts). */
const insertOrder = preparedInsert(orders, "order_insert");
// A statement per number of locations, for the first 32 counts an instance meets.
const insertOrderLocations = preparedInsert(orderLocations, "order_locations_insert", { maxShapes: 32 });

/** An unconfirmed order expires after this long (DESIGN.md: 7 days). */
export const ORDER_EXPIRY_MS = 7 * 86_400_000;

export interface CreateOrderOptions {
  /** The caller's organisation and plan (the quote follows the plan). */
  caller: { orgId: string; plan: Plan };
  /** The create-order body, validated. */
  input: CreateOrderInput;
  /**
   * The draft this order is placed from: linked to it in the same transaction, on condition that
   * the draft is still at `version` and has no order yet — so two places of one draft make one order
   * (the loser gets 409 `draft_already_placed` and nothing is written).
   */
  fromDraft?: { id: string; version: number };
  /** Called with the order inside its transaction, before the commit (e.g. to store the idempotent response with it). */
  beforeCommit?: (tx: Db, order: Order) => Promise<void>;
}

/** Creates the order and answers its representation from what was written (no read-back). */
export async function createOrder(ctx: ServiceContext, options: CreateOrderOptions): Promise<Order> {
  const { caller, input } = options;
  const { orgId } = caller;
  const now = new Date();
  const prepared = prepareOrder(input, now);
  const webhookUrl = await checkedDeliveryUrl(ctx, input);
  if (webhookUrl) {
    const [org] = await ctx.db.select({ secret: organisations.orderDeliverySecret }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
    if (!org?.secret) {
      throw new ApiError(
        409,
        "delivery_secret_missing",
        `Create the organisation's order-delivery secret first (POST ${ORDERS_BASE_PATH}/delivery-secret): it signs what is sent to delivery.webhook_url.`,
        {
          errors: [{ pointer: "/delivery/webhook_url", in: "body", message: "No order-delivery secret to sign deliveries with yet." }],
        },
      );
    }
  }
  const quote = await quoteOrder(ctx, caller, prepared, now);
  const id = createId("order");
  // The row as stored (the columns left to their defaults spelled out), so nothing is read back.
  const row: OrderRow = {
    id,
    orgId,
    clientReference: input.client_reference ?? null,
    category: input.category,
    description: input.description ?? "",
    status: "pending_confirmation",
    statusReason: null,
    requirements: input.requirements ?? {},
    recurring: input.recurring?.enabled ? input.recurring : null,
    delivery: webhookUrl ? { webhook_url: webhookUrl } : {},
    quote,
    currency: quote.currency,
    paymentMethod: null,
    nextCycleIndex: 0,
    createdAt: now,
    updatedAt: now,
    confirmedAt: null,
    cancelledAt: null,
    fulfilledAt: null,
    expiresAt: new Date(now.getTime() + ORDER_EXPIRY_MS),
  };
  const locations: OrderLocationRow[] = prepared.locations.map((l, position) => ({
    orderId: id,
    id: l.location_id,
    position,
    name: l.name,
    lat: l.lat,
    lng: l.lng,
    timeZone: l.timeZone,
    requirements: l.requirements,
  }));
  return ctx.db.transaction(async (tx) => {
    await insertOrder(tx, [row]);
    await insertOrderLocations(tx, locations);
    if (options.fromDraft) await linkDraft(tx, { orgId, orderId: id, draft: options.fromDraft, now });
    if (webhookUrl) {
      // Signed with the organisation's order-delivery secret at send time; this column is unused.
      await tx
        .insert(webhookEndpoints)
        .values({ id: createId("webhook"), orgId, orderId: id, url: webhookUrl, events: ["*"], secret: "", description: `Delivery URL of ${id}` });
    }
    const order = serializeOrder(ctx, row, newOrderExtras(locations));
    await options.beforeCommit?.(tx, order);
    return order;
  });
}

async function linkDraft(tx: Db, options: { orgId: string; orderId: string; draft: { id: string; version: number }; now: Date }): Promise<void> {
  const { orgId, orderId, draft, now } = options;
  const linked = await tx
    .update(orderDrafts)
    .set({ orderId, step: "review", version: draft.version + 1, updatedAt: now })
    .where(and(eq(orderDrafts.id, draft.id), eq(orderDrafts.orgId, orgId), eq(orderDrafts.version, draft.version), isNull(orderDrafts.orderId)))
    .returning({ id: orderDrafts.id });
  if (linked.length === 0) {
    throw new ApiError(409, "draft_already_placed", "The draft was placed or changed by another request at the same moment; reload it.");
  }
}
