import { describe, expect, it } from "vitest";

import { parseCoordinates } from "./parse-coordinates";

describe("parseCoordinates", () => {
  it("reads latitude first, as map apps show it", () => {
    expect(parseCoordinates("43.7696, 11.2558")).toEqual({ lat: 43.7696, lng: 11.2558 });
    expect(parseCoordinates("  -33.86,151.21 ")).toEqual({ lat: -33.86, lng: 151.21 });
    expect(parseCoordinates("43.7696 11.2558")).toEqual({ lat: 43.7696, lng: 11.2558 });
    expect(parseCoordinates("43.7696; 11.2558")).toEqual({ lat: 43.7696, lng: 11.2558 });
  });

  it("follows hemisphere letters in either order", () => {
    expect(parseCoordinates("43.7696 N 11.2558 E")).toEqual({ lat: 43.7696, lng: 11.2558 });
    expect(parseCoordinates("11.2558E, 43.7696N")).toEqual({ lat: 43.7696, lng: 11.2558 });
    expect(parseCoordinates("33.86°S 151.21°E")).toEqual({ lat: -33.86, lng: 151.21 });
    expect(parseCoordinates("0.5 N, 78.2 W")).toEqual({ lat: 0.5, lng: -78.2 });
  });

  it("takes longitude first when the first number cannot be a latitude", () => {
    expect(parseCoordinates("151.21, -33.86")).toEqual({ lat: -33.86, lng: 151.21 });
  });

  it("refuses what is not a valid pair", () => {
    for (const text of ["Florence", "43.77", "43.77, 11.25, 3", "95, 200", "43 N 11 N", "-43 S, 11 E", "43.7.1, 11", "", "1e3, 4"]) {
      expect(parseCoordinates(text), text).toBeNull();
    }
  });
});
