import { describe, expect, it } from "vitest";
import { quantile } from "@/lib/orders/delivery-estimate";
import { planDemoHistory } from "./demo-history";

const DAY = 86_400_000;
const now = new Date("2026-11-29T08:00:00Z");
const today = new Date("2026-11-29T00:00:00Z");
const month = () =>
  planDemoHistory({
    from: new Date(today.getTime() - 30 * DAY),
    to: today,
    now,
    deliveryHours: 24,
  });
const hoursOf = (placedAt: Date, at: Date) => (at.getTime() - placedAt.getTime()) / 3_600_000;
/** Florence's local hour (CET) of an instant. */
const florenceHour = (at: Date) => (at.getUTCHours() + 1) % 24;

describe("the demo's month of history", () => {
  it("is the same every time it is planned, and a day's orders do not depend on the days around it", () => {
    expect(month()).toEqual(month());
    const lastWeek = planDemoHistory({
      from: new Date(today.getTime() - 7 * DAY),
      to: today,
      now,
      deliveryHours: 24,
    });
    expect(lastWeek.map((o) => o.placedAt)).toEqual(
      month()
        .filter((o) => o.placedAt.getTime() >= today.getTime() - 7 * DAY)
        .map((o) => o.placedAt),
    );
  });

  it("has one or two orders a day of two Florence places, placed in the day, all delivered before now", () => {
    const orders = month();
    expect(orders.length).toBeGreaterThanOrEqual(30);
    // Each has a name of its own in the orders list: the day it was placed and its number that day.
    expect(orders[0]?.reference).toMatch(/^demo-history-2026-10-30-1$/);
    expect(new Set(orders.map((o) => o.reference)).size).toBe(orders.length);
    expect(orders.length).toBeLessThanOrEqual(60);
    for (const order of orders) {
      expect(order.locations).toHaveLength(2);
      expect(florenceHour(order.placedAt)).toBeGreaterThanOrEqual(8);
      expect(florenceHour(order.placedAt)).toBeLessThan(19);
      expect(order.fulfilledAt.getTime()).toBeLessThan(now.getTime());
    }
  });

  it("keeps the contributor's pace: each place reached 2–30 h after the order (or the next morning), shots in daytime, verified within minutes", () => {
    for (const order of month()) {
      for (const location of order.locations) {
        const first = location.shots.filter((s) => s.attempt === 0);
        expect(first.map((s) => s.angle).sort()).toEqual([...location.angles].sort());
        const reached = Math.min(...first.map((s) => s.takenAt.getTime()));
        // 2–30 h, plus a night's wait for the morning when it fell after dark.
        expect(hoursOf(order.placedAt, new Date(reached))).toBeGreaterThanOrEqual(2);
        expect(hoursOf(order.placedAt, new Date(reached))).toBeLessThan(30 + 12);
        for (const shot of location.shots) {
          expect(florenceHour(shot.takenAt)).toBeGreaterThanOrEqual(7);
          expect(florenceHour(shot.takenAt)).toBeLessThan(22);
          const minutes = (shot.verifiedAt.getTime() - shot.takenAt.getTime()) / 60_000;
          expect(minutes).toBeGreaterThanOrEqual(1);
          expect(minutes).toBeLessThanOrEqual(8);
        }
        // A failed shot is retaken, and the location is delivered once every angle passed.
        for (const failed of location.shots.filter((s) => !s.passed)) {
          expect(location.shots.some((s) => s.angle === failed.angle && s.attempt === failed.attempt + 1 && s.passed)).toBe(true);
        }
        expect(location.deliveredAt.getTime()).toBeGreaterThan(Math.max(...location.shots.map((s) => s.verifiedAt.getTime())));
      }
    }
  });

  it("promises the later of the plan's 24 h and the estimate from the history before, so some locations are late and most are not", () => {
    const locations = month().flatMap((o) => o.locations.map((l) => ({ ...l, placedAt: o.placedAt })));
    for (const l of locations) expect(l.deliverBy.getTime()).toBeGreaterThanOrEqual(l.placedAt.getTime() + 24 * 3_600_000);
    // The first orders have too little history for an estimate; later ones have one.
    expect(locations[0]?.estimateP90Hours).toBeNull();
    expect(locations.filter((l) => l.estimateP90Hours !== null).length).toBeGreaterThan(locations.length * 0.8);
    const late = locations.filter((l) => l.deliveredAt > l.deliverBy).length;
    expect(late).toBeGreaterThan(0);
    expect(late).toBeLessThan(locations.length * 0.3);
    // An honest pace: half delivered within a working day, nine in ten within a day and a half.
    const hours = locations.map((l) => hoursOf(l.placedAt, l.deliveredAt));
    expect(quantile(hours, 0.5)).toBeLessThan(20);
    expect(quantile(hours, 0.9)).toBeLessThan(36);
    expect(Math.min(...hours)).toBeGreaterThanOrEqual(2);
  });
});
