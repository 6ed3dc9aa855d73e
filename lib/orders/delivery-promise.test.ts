import { describe, expect, it } from "vitest";
import { deliveredStatus, locationPromise, mayCancelFree, orderDeliveryStatus } from "./delivery-promise";

const HOUR = 3_600_000;
const opensAt = new Date("2026-11-29T10:00:00Z");
const at = (hours: number) => new Date(opensAt.getTime() + hours * HOUR);

describe("locationPromise", () => {
  it("keeps the plan's deadline when the estimate is sooner, and expects the take by the estimate's p50", () => {
    const promise = locationPromise({ estimate: { p50_hours: 6, p90_hours: 20 }, planDeadline: at(48), opensAt });
    expect(promise).toEqual({ deliverBy: at(48), expectedTakeBy: at(6), source: "plan" });
  });

  it("takes the estimate when it is later than the plan's deadline", () => {
    const promise = locationPromise({ estimate: { p50_hours: 60, p90_hours: 76 }, planDeadline: at(48), opensAt });
    expect(promise).toEqual({ deliverBy: at(76), expectedTakeBy: at(60), source: "estimate" });
  });

  it("without an estimate expects the take half-way to the deadline", () => {
    expect(locationPromise({ estimate: null, planDeadline: at(24), opensAt })).toEqual({ deliverBy: at(24), expectedTakeBy: at(12), source: "plan" });
  });

  it("never expects the take after the deadline, nor before the opening", () => {
    // A recurring cycle's window (3 h) shorter than the estimate's p50 (a p90 that is sooner is impossible, but the window binds).
    expect(locationPromise({ estimate: { p50_hours: 5, p90_hours: 2 }, planDeadline: at(3), opensAt }).expectedTakeBy).toEqual(at(3));
    expect(locationPromise({ estimate: null, planDeadline: at(-1), opensAt }).expectedTakeBy).toEqual(opensAt);
  });
});

describe("deliveredStatus", () => {
  it("is on time by deliver_by and late after it, or once the sweep had found it late", () => {
    expect(deliveredStatus({ status: "at_risk", deliverBy: at(48), deliveredAt: at(48) })).toBe("delivered_on_time");
    expect(deliveredStatus({ status: "on_track", deliverBy: at(48), deliveredAt: at(48.01) })).toBe("delivered_late");
    expect(deliveredStatus({ status: "late", deliverBy: at(48), deliveredAt: at(1) })).toBe("delivered_late");
  });
});

describe("orderDeliveryStatus", () => {
  it("is the worst open location's while any is open", () => {
    expect(
      orderDeliveryStatus([
        { status: "on_track", open: true },
        { status: "at_risk", open: true },
        { status: "delivered_late", open: false },
      ]),
    ).toBe("at_risk");
    expect(
      orderDeliveryStatus([
        { status: "late", open: true },
        { status: "at_risk", open: true },
      ]),
    ).toBe("late");
    // A given-up location that was late no longer counts as open.
    expect(
      orderDeliveryStatus([
        { status: "late", open: false },
        { status: "on_track", open: true },
      ]),
    ).toBe("on_track");
  });

  it("once none is open: delivered late if any was, else on time; null when nothing was delivered", () => {
    expect(
      orderDeliveryStatus([
        { status: "delivered_on_time", open: false },
        { status: "delivered_late", open: false },
      ]),
    ).toBe("delivered_late");
    expect(
      orderDeliveryStatus([
        { status: "delivered_on_time", open: false },
        { status: "late", open: false },
      ]),
    ).toBe("delivered_on_time");
    expect(orderDeliveryStatus([{ status: "late", open: false }])).toBeNull();
    expect(orderDeliveryStatus([])).toBeNull();
  });
});

describe("mayCancelFree", () => {
  it("allows late and delivered-late locations only", () => {
    expect(["on_track", "at_risk", "late", "delivered_on_time", "delivered_late"].filter((s) => mayCancelFree(s as never))).toEqual(["late", "delivered_late"]);
  });
});
