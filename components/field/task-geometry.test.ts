import { describe, expect, it } from "vitest";
import { compassAbbreviation, compassName, locatorLayout, wayTo } from "./task-geometry";

describe("task geometry", () => {
  it("names the eight compass points", () => {
    expect([0, 44, 46, 90, 180, 225, 300, 359].map(compassAbbreviation)).toEqual(["N", "NE", "NE", "E", "S", "SW", "NW", "N"]);
    expect(compassName(45)).toBe("north-east");
    expect(compassAbbreviation(-90)).toBe("W");
  });

  it("prefers the API's measured way, else measures from the position", () => {
    const target = { lat: 43.7731, lng: 11.256 };
    expect(wayTo(target, null, { distance_m: 240, bearing_deg: 45 })).toEqual({ distanceM: 240, bearingDeg: 45 });
    expect(wayTo(target, null, { distance_m: null, bearing_deg: null })).toBeNull();
    // 30 m due south of the target: the target is 30 m away, due north.
    expect(wayTo(target, { lat: target.lat - 30 / 111_320, lng: target.lng })).toEqual({ distanceM: 30, bearingDeg: 0 });
  });

  it("draws the zoomer below a target that lies due north, with the arrow pointing up at it", () => {
    const target = { lat: 43.7731, lng: 11.256 };
    const layout = locatorLayout(target, { lat: target.lat - 200 / 111_320, lng: target.lng }, { width: 100, height: 100 });
    expect(layout.target.x).toBeCloseTo(50);
    expect(layout.you?.x).toBeCloseTo(50);
    expect(layout.you?.y ?? 0).toBeGreaterThan(layout.target.y);
    // Both inside the box with the padding.
    expect(layout.target.y).toBeCloseTo(20);
    expect(layout.you?.y).toBeCloseTo(80);
    expect(layout.line?.to.y ?? 0).toBeGreaterThan(layout.target.y);
    expect(layout.arrowhead).toMatch(/^50,\d/);
  });

  it("centres the target alone, and draws no route when the zoomer stands on it", () => {
    const target = { lat: 43.7731, lng: 11.256 };
    expect(locatorLayout(target, null, { width: 160, height: 100 })).toMatchObject({ target: { x: 80, y: 50 }, you: null, line: null });
    const there = locatorLayout(target, { lat: target.lat + 1e-6, lng: target.lng }, { width: 100, height: 100 });
    expect(there.line).toBeNull();
    expect(there.you).not.toBeNull();
  });
});
