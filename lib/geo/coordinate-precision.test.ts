import { describe, expect, it } from "vitest";

import { roundCoordinate, roundPolygonCoordinates, samePolygon } from "./coordinate-precision";
import type { PolygonGeometry } from "./polygon";

const square: PolygonGeometry = {
  type: "Polygon",
  coordinates: [
    [
      [11.2500004, 43.7700006, 120],
      [11.2600001, 43.7700006, 121],
      [11.2600001, 43.7799995, 119],
      [11.2500004, 43.7700006, 120],
    ],
  ],
};

describe("roundCoordinate", () => {
  it("keeps six decimals by default", () => {
    expect(roundCoordinate(11.123456789)).toBe(11.123457);
    expect(roundCoordinate(-0.0000004)).toBe(-0);
    expect(roundCoordinate(43.5, 0)).toBe(44);
  });
});

describe("roundPolygonCoordinates", () => {
  it("rounds longitudes and latitudes and drops altitudes", () => {
    expect(roundPolygonCoordinates(square).coordinates[0]).toEqual([
      [11.25, 43.770001],
      [11.26, 43.770001],
      [11.26, 43.78],
      [11.25, 43.770001],
    ]);
  });

  it("does not modify its input", () => {
    roundPolygonCoordinates(square);
    expect(square.coordinates[0]?.[0]).toEqual([11.2500004, 43.7700006, 120]);
  });
});

describe("samePolygon", () => {
  it("compares positions ring by ring, ignoring altitude", () => {
    const rounded = roundPolygonCoordinates(square);
    expect(samePolygon(rounded, roundPolygonCoordinates(square))).toBe(true);
    expect(samePolygon(rounded, square)).toBe(false);
    expect(samePolygon(null, null)).toBe(true);
    expect(samePolygon(rounded, null)).toBe(false);
    const moved = roundPolygonCoordinates(square);
    moved.coordinates[0]?.splice(1, 1, [11.27, 43.770001]);
    expect(samePolygon(rounded, moved)).toBe(false);
  });
});
