import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "@/lib/db/schema";
import { ApiError } from "@/lib/service/errors";
import { ALLOWED_FROM, assertAction, canDo, type OrderAction } from "./order-states";

describe("the order state machine", () => {
  const expected: Record<OrderAction, string[]> = {
    confirm: ["pending_confirmation", "payment_failed"],
    authenticate_payment: ["payment_action_required"],
    cancel: ["pending_confirmation", "payment_action_required", "payment_failed", "confirmed", "in_progress", "active", "paused"],
    pause: ["active"],
    resume: ["paused"],
  };

  it.each(Object.keys(expected) as OrderAction[])("allows %s exactly from its states", (action) => {
    for (const status of ORDER_STATUSES) expect(canDo(action, status), `${action} from ${status}`).toBe(expected[action].includes(status));
  });

  it("never leaves a final state", () => {
    for (const status of ["fulfilled", "partially_fulfilled", "ended", "cancelled", "expired"] as const) {
      for (const action of Object.keys(ALLOWED_FROM) as OrderAction[]) expect(canDo(action, status)).toBe(false);
    }
  });

  it("answers 409 naming the current state", () => {
    try {
      assertAction("confirm", "in_progress", false);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(409);
      expect((error as ApiError).code).toBe("invalid_order_state");
      expect((error as ApiError).message).toContain("in_progress");
    }
  });

  it("refuses pause and resume for one-off orders whatever their state", () => {
    expect(() => assertAction("pause", "active", false)).toThrow(/Only recurring orders/);
    expect(() => assertAction("pause", "active", true)).not.toThrow();
  });
});
