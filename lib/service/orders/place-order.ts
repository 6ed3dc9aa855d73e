// POST /drafts/{id}/place: the dashboard's "Place order and pay" as one operation — the order the
// draft stands for is created (once: linked to the draft in the same transaction), then confirmed
// and paid with the card on file. A second place of the same draft (a double click, a retried
// request, another tab) finds the order already linked and pays it only if it is still unpaid.
//
// An order that was created but could not be paid (declined card, card authentication, plan quota,
// no cycle left) is not an error of this operation: the answer is the order with a typed payment
// outcome, so the caller can link to it and try the payment again.
import type { Plan } from "@/lib/db/schema";
import { OrderDraftBodySchema, toCreateBody } from "@/lib/orders/draft";
import { PAYABLE_STATUSES, type OrderStatus } from "@/lib/orders/vocabulary";
import { CreateOrderSchema, type Order } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, validationFailed } from "@/lib/service/errors";
import { confirmOrder } from "./confirm-order";
import { createOrder } from "./create-order";
import { getDraft } from "./order-drafts";
import { getOrder } from "./order-views";

export type PaymentOutcome =
  /** Charged now (or by an earlier place of the same draft): the order is under way. */
  | { status: "paid" }
  /** The order exists and waits for payment; `code` and `detail` say why it was not charged. */
  | { status: "not_paid"; code: string; detail: string };

export interface PlacedOrder {
  order: Order;
  /** Whether this request created the order (false when the draft had been placed before). */
  created: boolean;
  payment: PaymentOutcome;
}

export interface PlaceOrderOptions {
  caller: { orgId: string; plan: Plan };
  draftId: string;
  /** The draft version the partner reviewed: a draft changed since is refused with 412. */
  version: number;
  /** Test mode: a documented test payment method instead of the card on file. */
  paymentMethodId?: string;
}

const UNPAID_STATES: Partial<Record<OrderStatus, { code: string; detail: string }>> = {
  payment_failed: { code: "payment_failed", detail: "The card was declined." },
  payment_action_required: { code: "payment_action_required", detail: "The card needs the customer's authentication." },
};

export async function placeOrder(ctx: ServiceContext, options: PlaceOrderOptions): Promise<PlacedOrder> {
  const { caller, draftId, version } = options;
  const orgId = caller.orgId;
  const { orderId, created } = await orderOfDraft(ctx, { caller, draftId, version });

  let refusal: ApiError | null = null;
  const before = await getOrder(ctx, { orgId, orderId });
  if ((PAYABLE_STATUSES as readonly string[]).includes(before.status)) {
    try {
      await confirmOrder(ctx, { orgId, orderId, paymentMethodId: options.paymentMethodId });
    } catch (error) {
      // Another request paid it meanwhile (invalid_order_state): read what it did. Anything else
      // that refuses the payment leaves the order unpaid, which the answer says.
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      if (error.code !== "invalid_order_state") refusal = error;
    }
  }
  const order = created || refusal || before.status !== "pending_confirmation" ? await getOrder(ctx, { orgId, orderId }) : before;
  return { order, created, payment: paymentOutcome(order, refusal) };
}

function paymentOutcome(order: Order, refusal: ApiError | null): PaymentOutcome {
  if (refusal) return { status: "not_paid", code: refusal.code, detail: refusal.message };
  const unpaid = UNPAID_STATES[order.status];
  if (unpaid) {
    const reason = order.status_reason ?? order.payments.findLast((p) => p.kind === "charge")?.failure_message ?? null;
    return { status: "not_paid", code: unpaid.code, detail: reason ?? unpaid.detail };
  }
  if (order.status === "pending_confirmation") return { status: "not_paid", code: "not_confirmed", detail: "The order has not been paid yet." };
  return { status: "paid" };
}

/** The draft's order: the one linked to it, or a new one created from the draft's body. */
async function orderOfDraft(ctx: ServiceContext, options: Omit<PlaceOrderOptions, "paymentMethodId">): Promise<{ orderId: string; created: boolean }> {
  const { caller, draftId, version } = options;
  const draft = await getDraft(ctx, { orgId: caller.orgId, draftId });
  if (draft.order_id) return { orderId: draft.order_id, created: false };
  if (draft.version !== version) {
    throw new ApiError(
      412,
      "draft_changed",
      `The draft was changed elsewhere since it was reviewed (version ${draft.version}, not ${version}); review it again.`,
    );
  }
  const body = OrderDraftBodySchema.safeParse(draft.body);
  if (!body.success) throw validationFailed(body.error);
  const input = CreateOrderSchema.safeParse(toCreateBody(body.data));
  if (!input.success) throw validationFailed(input.error);
  try {
    const order = await createOrder(ctx, { caller, input: input.data, fromDraft: { id: draftId, version } });
    return { orderId: order.id, created: true };
  } catch (error) {
    // A concurrent place of the same draft won the link: its order is the one.
    if (!(error instanceof ApiError) || error.code !== "draft_already_placed") throw error;
    const again = await getDraft(ctx, { orgId: caller.orgId, draftId });
    if (!again.order_id) throw error;
    return { orderId: again.order_id, created: false };
  }
}
