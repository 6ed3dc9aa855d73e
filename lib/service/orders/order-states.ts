// The order state machine: which action is allowed from which state. Every change of state goes
// through `assertAction`, so an illegal one is a 409 that names the current state. docs/orders.md ("States") and
// the OpenAPI descriptions carry the same table.
import type { OrderStatus } from "@/lib/db/schema";
import { ApiError } from "@/lib/service/errors";

export type OrderAction = "confirm" | "authenticate_payment" | "cancel" | "pause" | "resume";

export const ALLOWED_FROM: Record<OrderAction, readonly OrderStatus[]> = {
  confirm: ["pending_confirmation", "payment_failed"],
  authenticate_payment: ["payment_action_required"],
  cancel: ["pending_confirmation", "payment_action_required", "payment_failed", "confirmed", "in_progress", "active", "paused"],
  pause: ["active"],
  resume: ["paused"],
};

/** Waiting for the partner: these expire 7 days after creation. */
export const UNCONFIRMED: readonly OrderStatus[] = ["pending_confirmation", "payment_action_required", "payment_failed"];

export function canDo(action: OrderAction, status: OrderStatus): boolean {
  return ALLOWED_FROM[action].includes(status);
}

export function assertAction(action: OrderAction, status: OrderStatus, recurring: boolean): void {
  if ((action === "pause" || action === "resume") && !recurring) {
    throw new ApiError(409, "order_not_recurring", `Only recurring orders can be paused or resumed; this order is ${status}.`);
  }
  if (!canDo(action, status)) {
    const allowed = ALLOWED_FROM[action].join(", ");
    throw new ApiError(409, "invalid_order_state", `Cannot ${action.replace("_", " ")} an order that is ${status} (allowed from: ${allowed}).`);
  }
}
