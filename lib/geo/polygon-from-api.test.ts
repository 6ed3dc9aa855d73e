import { describe, expect, it } from "vitest";
import { polygonFromApi } from "./polygon-from-api";

describe("polygonFromApi", () => {
  it("keeps longitude and latitude of every position", () => {
    const ring = [
      [11.2, 43.7],
      [11.3, 43.7],
      [11.3, 43.8],
      [11.2, 43.7],
    ];
    expect(polygonFromApi({ type: "Polygon", coordinates: [ring] }).coordinates[0]).toEqual(ring);
  });
  it("refuses a position without a latitude", () => {
    expect(() => polygonFromApi({ type: "Polygon", coordinates: [[[11.2]]] })).toThrow(/latitude/);
  });
});
