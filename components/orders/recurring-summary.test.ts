import { describe, expect, it } from "vitest";
import { cycleDeliveries, nextCycleSummary, recurringProgressText } from "./recurring-summary";
import { task } from "./assignment-fixture";
import { testWords } from "./test-words";
import type { Order } from "./types";

const en = testWords("en", "en-GB");

describe("nextCycleSummary", () => {
  it("gives the next cycle's local date and window, counted from 1", () => {
    const order = {
      recurring: { enabled: true, frequency: "weekly", day_of_week: 5, time_window: "18:00-21:00" },
      next_cycle: { index: 2, local_date: "2027-06-11", dispatch_at: "2027-06-10T16:00:00Z" },
      requirements: {},
    } as Pick<Order, "recurring" | "next_cycle" | "requirements">;
    expect(nextCycleSummary(order, en)).toEqual({ date: "2027-06-11", day: "Fri 11 Jun", window: "18:00–21:00 local time", number: 3 });
    // In German: the German date, the window on the German clock; in American English, a 12-hour clock.
    expect(nextCycleSummary(order, testWords("de", "de"))).toMatchObject({ day: "Fr., 11. Juni", window: "18:00–21:00 Ortszeit" });
    expect(nextCycleSummary(order, testWords("en", "en-US"))?.window).toMatch(/^06:00\sPM–09:00\sPM local time$/);
  });

  it("falls back to the time of day, and is null for one-off orders or when nothing is scheduled", () => {
    const daily = {
      recurring: { enabled: true, frequency: "daily" },
      next_cycle: { index: 0, local_date: "2027-01-04", dispatch_at: "2027-01-03T07:00:00Z" },
      requirements: { time_of_day: "midday" },
    } as Pick<Order, "recurring" | "next_cycle" | "requirements">;
    expect(nextCycleSummary(daily, en)?.window).toBe("midday");
    expect(nextCycleSummary({ ...daily, next_cycle: null }, en)).toBeNull();
    expect(nextCycleSummary({ ...daily, recurring: null }, en)).toBeNull();
  });
});

describe("cycleDeliveries", () => {
  it("counts each cycle's fully delivered locations, newest cycle first, latest attempts only", () => {
    const cycles = cycleDeliveries([
      task({ location_id: "loc_a", status: "verified", delivered_at: "2027-01-01T12:00:00Z" }),
      task({ location_id: "loc_b", status: "failed" }),
      task({ location_id: "loc_b", attempt: 1, status: "verified", delivered_at: "2027-01-01T13:00:00Z" }),
      task({ location_id: "loc_a", cycle_index: 1, status: "open" }),
      task({ location_id: "loc_b", cycle_index: 1, status: "verified", delivered_at: "2027-01-02T12:00:00Z" }),
      task({ location_id: "loc_b", cycle_index: 1, angle: "overview", status: "submitted" }),
    ]);
    expect(cycles).toEqual([
      { index: 1, dispatched: 2, delivered: 0 },
      { index: 0, dispatched: 2, delivered: 2 },
    ]);
    expect(recurringProgressText(cycles, en.t)).toBe("Cycle 2: 0 of 2 delivered · cycle 1: 2 of 2");
  });

  it("says nothing before the first cycle, and only the current one after it", () => {
    expect(recurringProgressText(cycleDeliveries([]), en.t)).toBeNull();
    expect(recurringProgressText(cycleDeliveries([task({ status: "verified", delivered_at: "2027-01-01T12:00:00Z" })]), en.t)).toBe(
      "Cycle 1: 1 of 1 delivered",
    );
  });
});
