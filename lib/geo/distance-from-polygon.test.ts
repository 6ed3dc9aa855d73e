import { describe, expect, it } from "vitest";

import { distanceFromPolygonM } from "./distance-from-polygon";
import type { PolygonGeometry } from "./polygon";

// About 1.1 km × 0.8 km around the Ponte Vecchio (lat 43.77: 1° lng ≈ 80.4 km, 1° lat ≈ 111.2 km).
const square: PolygonGeometry = {
  type: "Polygon",
  coordinates: [
    [
      [11.25, 43.765],
      [11.26, 43.765],
      [11.26, 43.775],
      [11.25, 43.775],
      [11.25, 43.765],
    ],
  ],
};

const withHole: PolygonGeometry = {
  type: "Polygon",
  coordinates: [
    ...square.coordinates,
    [
      [11.254, 43.769],
      [11.254, 43.771],
      [11.256, 43.771],
      [11.256, 43.769],
      [11.254, 43.769],
    ],
  ],
};

describe("distanceFromPolygonM", () => {
  it("is 0 inside the polygon, even right beside an edge", () => {
    expect(distanceFromPolygonM(square, 11.255, 43.77)).toBe(0);
    expect(distanceFromPolygonM(square, 11.25001, 43.77)).toBe(0);
  });

  it("is the distance to the nearest edge outside it", () => {
    // 0.001° of latitude north of the top edge ≈ 111 m.
    expect(distanceFromPolygonM(square, 11.255, 43.776)).toBeCloseTo(111.2, 0);
    // 0.002° of longitude east of the right edge at lat 43.77 ≈ 160.8 m.
    expect(distanceFromPolygonM(square, 11.262, 43.77)).toBeCloseTo(160.8, 0);
  });

  it("measures from the nearest corner diagonally off it", () => {
    const d = distanceFromPolygonM(square, 11.261, 43.776);
    expect(d).toBeGreaterThan(111.2);
    expect(d).toBeCloseTo(Math.hypot(111.2, 80.4), -1);
  });

  it("treats a point in a hole as outside, measured to the hole's edge", () => {
    // The hole's centre is 0.001° of latitude (≈111 m) from its north and south edges and 0.001°
    // of longitude (≈80 m) from its east and west edges.
    expect(distanceFromPolygonM(withHole, 11.255, 43.77)).toBeCloseTo(80.4, 0);
  });
});
