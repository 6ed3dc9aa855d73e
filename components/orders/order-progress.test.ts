import { describe, expect, it } from "vitest";
import { locationProgress, orderTimeline } from "./order-progress";
import type { Order, OrderAssignment } from "./types";

let n = 0;
function task(fields: Partial<OrderAssignment>): OrderAssignment {
  n++;
  return {
    id: `asg_${n}`,
    mission_id: "mis_1",
    location_id: "loc_a",
    cycle_index: 0,
    angle: "front",
    attempt: 0,
    status: "open",
    late: false,
    deadline_at: "2027-01-03T00:00:00Z",
    zoomer_id: null,
    photo_id: null,
    instructions: [],
    verification: null,
    delivered_at: null,
    created_at: "2027-01-01T10:00:00Z",
    ...fields,
  };
}

describe("locationProgress", () => {
  it("is delivered when every angle's latest attempt was delivered, failed when one was given up", () => {
    const progress = locationProgress(
      ["loc_a", "loc_b", "loc_c", "loc_d"],
      [
        task({ location_id: "loc_a", angle: "front", status: "failed" }),
        task({ location_id: "loc_a", angle: "front", attempt: 1, status: "verified", delivered_at: "2027-01-01T12:00:00Z" }),
        task({ location_id: "loc_a", angle: "overview", status: "verified", delivered_at: "2027-01-01T12:00:00Z" }),
        task({ location_id: "loc_b", angle: "front", status: "verified" }),
        task({ location_id: "loc_b", angle: "overview", status: "open" }),
        task({ location_id: "loc_c", angle: "front", attempt: 3, status: "given_up" }),
      ],
    );
    expect(progress.get("loc_a")?.state).toBe("delivered");
    expect(progress.get("loc_b")?.state).toBe("in_progress");
    expect(progress.get("loc_c")?.state).toBe("failed");
    expect(progress.get("loc_d")?.state).toBe("waiting");
  });

  it("goes back to in progress when the partner sent a delivered photo back", () => {
    const progress = locationProgress(
      ["loc_a"],
      [task({ status: "cancelled", delivered_at: "2027-01-01T12:00:00Z" }), task({ attempt: 1, status: "open", created_at: "2027-01-02T09:00:00Z" })],
    );
    expect(progress.get("loc_a")?.state).toBe("in_progress");
  });

  it("looks at the latest cycle only", () => {
    const progress = locationProgress(["loc_a"], [task({ status: "verified", delivered_at: "2027-01-01T12:00:00Z" }), task({ cycle_index: 1, status: "open" })]);
    expect(progress.get("loc_a")).toMatchObject({ state: "in_progress", cycleIndex: 1 });
  });
});

describe("orderTimeline", () => {
  it("tells the order's story in time order", () => {
    const order = {
      created_at: "2027-01-01T09:00:00Z",
      confirmed_at: "2027-01-01T09:05:00Z",
      cancelled_at: null,
      status_reason: null,
      recurring: null,
      locations: [{ location_id: "loc_a", name: "Duomo" }],
      quote: { total_cents: 1240, currency: "EUR" },
      payments: [{ kind: "charge", status: "succeeded", amount_cents: 1240, currency: "EUR", cycle_index: 0, payment_method: "pm_card_visa", failure_code: null, failure_message: null, created_at: "2027-01-01T09:05:00Z" }],
    } as unknown as Order;
    const entries = orderTimeline(order, [
      task({ created_at: "2027-01-01T09:05:01Z", status: "verified", delivered_at: "2027-01-01T11:00:00Z" }),
      task({ angle: "overview", created_at: "2027-01-01T09:05:01Z", status: "verified", delivered_at: "2027-01-01T11:00:00Z" }),
    ]);
    expect(entries.map((e) => e.title)).toEqual(["Order created", "Confirmed", "Charged €12.40", "Sent to the field", "Delivered: Duomo"]);
    expect(entries[3]?.detail).toBe("1 location, 2 photos to take");
    expect(entries[4]?.detail).toBe("2 photos");
  });
});
