import { describe, expect, it } from "vitest";
import { MIN_SIMILAR_TASKS, estimateLocation, estimateOrder, quantile, type PastTask } from "./delivery-estimate";

const opensAt = new Date("2027-03-01T08:00:00Z");
const task = (id: string, hours: number, distanceKm = 5): PastTask => ({ id, hours, distanceKm });

describe("quantile", () => {
  it("interpolates between order statistics like percentile_cont (type 7)", () => {
    expect(quantile([2, 4, 6, 8, 30], 0.5)).toBe(6);
    // (5 − 1) × 0.9 = 3.6: 8 + 0.6 × (30 − 8)
    expect(quantile([30, 2, 8, 6, 4], 0.9)).toBeCloseTo(21.2, 10);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([7], 0.9)).toBe(7);
    expect(quantile([3, 1], 0)).toBe(1);
    expect(quantile([3, 1], 1)).toBe(3);
  });

  it("has no quantile for an empty sample and refuses nonsense", () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(() => quantile([1], 1.5)).toThrow(RangeError);
    expect(() => quantile([1, Number.NaN], 0.5)).toThrow(RangeError);
  });
});

describe("estimateLocation", () => {
  it("rests on the narrowest radius that holds enough history", () => {
    const tasks = [task("a", 2), task("b", 4), task("c", 6), task("d", 8), task("e", 30), task("far", 500, 80)];
    const result = estimateLocation({
      tasks,
      zoomers: [
        { id: "z1", distanceKm: 3 },
        { id: "z2", distanceKm: 60 },
      ],
      opensAt,
    });
    expect(result.estimate).toEqual({
      p50_hours: 6,
      p90_hours: 21.2,
      deliver_by: new Date(opensAt.getTime() + 21.2 * 3_600_000).toISOString(),
      basis: { similar_tasks: 5, zoomers_nearby_30d: 1, radius_km: 25 },
    });
    expect(result.reasons).toEqual([]);
  });

  it("widens to 100 km when 25 km holds too little", () => {
    const tasks = [task("a", 10, 30), task("b", 20, 40), task("c", 30, 90)];
    const result = estimateLocation({ tasks, zoomers: [{ id: "z", distanceKm: 50 }], opensAt });
    expect(result.estimate?.basis).toEqual({ similar_tasks: 3, zoomers_nearby_30d: 1, radius_km: 100 });
    expect(result.estimate?.p50_hours).toBe(20);
  });

  it("gives no estimate, with the reason, where there is no or too little history", () => {
    const none = estimateLocation({ tasks: [], zoomers: [], opensAt });
    expect(none.estimate).toBeNull();
    expect(none.reasons.map((r) => r.code)).toEqual(["no_contributors_nearby", "no_history"]);
    const few = estimateLocation({ tasks: [task("a", 1)], zoomers: [{ id: "z", distanceKm: 1 }], opensAt });
    expect(few.estimate).toBeNull();
    expect(few.reasons).toEqual([
      expect.objectContaining({ code: "too_little_history", params: expect.objectContaining({ similar_tasks: 1, minimum: MIN_SIMILAR_TASKS }) }),
    ]);
  });
});

describe("estimateOrder", () => {
  it("is the slowest location's, on all samples counted once", () => {
    const fast = estimateLocation({ tasks: [task("a", 1), task("b", 2), task("c", 3)], zoomers: [{ id: "z1", distanceKm: 1 }], opensAt });
    const slow = estimateLocation({
      tasks: [task("c", 3), task("d", 10), task("e", 40)],
      zoomers: [
        { id: "z1", distanceKm: 1 },
        { id: "z2", distanceKm: 2 },
      ],
      opensAt,
    });
    const { estimate, reasons } = estimateOrder([
      { name: "fast", result: fast },
      { name: "slow", result: slow },
    ]);
    expect(reasons).toEqual([]);
    expect(estimate?.p50_hours).toBe(10);
    expect(estimate?.p90_hours).toBe(slow.estimate?.p90_hours);
    expect(estimate?.deliver_by).toBe(slow.estimate?.deliver_by);
    expect(estimate?.basis).toEqual({ similar_tasks: 5, zoomers_nearby_30d: 2, radius_km: 25 });
  });

  it("gives none when a location has none", () => {
    const some = estimateLocation({ tasks: [task("a", 1), task("b", 2), task("c", 3)], zoomers: [], opensAt });
    const none = estimateLocation({ tasks: [], zoomers: [], opensAt });
    const result = estimateOrder([
      { name: "here", result: some },
      { name: "nowhere", result: none },
    ]);
    expect(result.estimate).toBeNull();
    expect(result.reasons).toEqual([expect.objectContaining({ code: "location_without_estimate", params: { locations: 1, first: "nowhere" } })]);
  });
});
