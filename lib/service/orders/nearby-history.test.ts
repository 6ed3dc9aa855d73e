import { describe, expect, it } from "vitest";
import { MAX_SIMILAR_TASKS } from "@/lib/orders/delivery-estimate";
import { nearbyHistory, type DeliveredCandidate } from "./nearby-history";

const FLORENCE = { lat: 43.7731, lng: 11.256 };
/** A point `km` due north of `place` (a degree of latitude is 111.195 km on the mean sphere). */
const north = (place: { lat: number; lng: number }, km: number) => ({ lat: place.lat + km / 111.19508, lng: place.lng });
const delivered = (id: string, km: number, at: number, hours = 5): DeliveredCandidate => ({ id, ...north(FLORENCE, km), hours, at });

describe("nearbyHistory", () => {
  it("keeps the deliveries within the radius, newest first, with their distance and hours", () => {
    const [history] = nearbyHistory(
      [FLORENCE],
      [delivered("near", 1, 100, 3), delivered("far", 150, 300), delivered("wide", 60, 200, 8), delivered("old-near", 10, 50)],
      [],
    );
    expect(history?.tasks.map((t) => t.id)).toEqual(["wide", "near", "old-near"]);
    expect(history?.tasks[0]?.hours).toBe(8);
    expect(history?.tasks[1]?.distanceKm).toBeCloseTo(1, 3);
    expect(history?.tasks[0]?.distanceKm).toBeCloseTo(60, 2);
  });

  it("orders deliveries at the same moment by id", () => {
    const [history] = nearbyHistory([FLORENCE], [delivered("b", 2, 100), delivered("c", 3, 100), delivered("a", 4, 100)], []);
    expect(history?.tasks.map((t) => t.id)).toEqual(["a", "b", "c"]);
  });

  it("keeps at most MAX_SIMILAR_TASKS of the newest within the narrow radius and as many beyond it", () => {
    const many = Array.from({ length: MAX_SIMILAR_TASKS + 20 }, (_, i) => [delivered(`n${i}`, 5, 2 * i), delivered(`w${i}`, 50, 2 * i + 1)]).flat();
    const [history] = nearbyHistory([FLORENCE], many, []);
    const narrow = history?.tasks.filter((t) => t.id.startsWith("n")) ?? [];
    const wide = history?.tasks.filter((t) => t.id.startsWith("w")) ?? [];
    expect(narrow).toHaveLength(MAX_SIMILAR_TASKS);
    expect(wide).toHaveLength(MAX_SIMILAR_TASKS);
    // The newest kept (the oldest 20 of each ring dropped), the rings interleaved by time.
    expect(history?.tasks[0]?.id).toBe(`w${MAX_SIMILAR_TASKS + 19}`);
    expect(narrow.at(-1)?.id).toBe("n20");
    expect(wide.at(-1)?.id).toBe("w20");
  });

  it("answers each place from the same candidates, in the places' order", () => {
    const rome = { lat: 41.9028, lng: 12.4964 };
    const histories = nearbyHistory([rome, FLORENCE], [delivered("florence", 2, 10), { id: "rome", ...north(rome, 3), hours: 4, at: 20 }], []);
    expect(histories.map((h) => h.tasks.map((t) => t.id))).toEqual([["rome"], ["florence"]]);
  });

  it("reaches across the antimeridian", () => {
    const fiji = { lat: -16.5, lng: 179.98 };
    const [history] = nearbyHistory([fiji], [{ id: "across", lat: -16.5, lng: -179.97, hours: 2, at: 1 }], [{ zoomerId: "z", lat: -16.5, lng: -179.9 }]);
    expect(history?.tasks.map((t) => t.id)).toEqual(["across"]);
    expect(history?.tasks[0]?.distanceKm).toBeCloseTo(5.33, 1);
    expect(history?.zoomers.map((z) => z.id)).toEqual(["z"]);
  });

  it("counts each contributor once, at their nearest submission within the radius, nearest first", () => {
    const [history] = nearbyHistory(
      [FLORENCE],
      [],
      [
        { zoomerId: "anna", ...north(FLORENCE, 40) },
        { zoomerId: "anna", ...north(FLORENCE, 2) },
        { zoomerId: "bo", ...north(FLORENCE, 1) },
        { zoomerId: "far", ...north(FLORENCE, 120) },
      ],
    );
    expect(history?.zoomers.map((z) => z.id)).toEqual(["bo", "anna"]);
    expect(history?.zoomers[1]?.distanceKm).toBeCloseTo(2, 3);
  });
});
