import { describe, expect, it } from "vitest";
import { importLocations, splitCsvLine } from "./locations-import";

describe("splitCsvLine", () => {
  it("keeps commas and doubled quotes inside quoted fields", () => {
    expect(splitCsvLine('"Caffè ""Gilli"", Piazza",43.77,11.25')).toEqual(['Caffè "Gilli", Piazza', "43.77", "11.25"]);
  });
});

describe("importLocations", () => {
  it("reads name,lat,lng rows in any column order and judges each row on its own", () => {
    const csv = "lat,name,lng,notes\n43.7731,Duomo,11.256,x\n\n91,Nowhere,11\n43.76,,11.25\n43.7678,Uffizi,abc\n43.768,Ponte Vecchio,11.2531";
    const result = importLocations(csv, 500);
    expect(result.format).toBe("csv");
    expect(result.locations).toEqual([
      { name: "Duomo", lat: 43.7731, lng: 11.256 },
      { name: "Ponte Vecchio", lat: 43.768, lng: 11.2531 },
    ]);
    expect(result.errors).toEqual([
      { row: 4, problems: [{ code: "outOfRange", axis: "lat", value: 91, min: -90, max: 90 }] },
      { row: 5, problems: [{ code: "nameEmpty" }] },
      { row: 6, problems: [{ code: "notANumber", axis: "lng", raw: "abc" }] },
    ]);
  });

  it("asks for the header when there is none", () => {
    expect(importLocations("Duomo,43.77,11.25", 500).errors).toEqual([{ row: 1, problems: [{ code: "noHeader" }] }]);
  });

  it("accepts semicolon-separated files and a byte-order mark", () => {
    expect(importLocations("\uFEFFname;latitude;longitude\nA;1.5;2.5", 500).locations).toEqual([{ name: "A", lat: 1.5, lng: 2.5 }]);
  });

  it("reads GeoJSON points with their names and refuses other geometries per feature", () => {
    const geojson = JSON.stringify({
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { name: "Duomo" }, geometry: { type: "Point", coordinates: [11.256, 43.7731] } },
        { type: "Feature", properties: { name: "Area" }, geometry: { type: "Polygon", coordinates: [] } },
        { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [11.25, 43.76] } },
      ],
    });
    const result = importLocations(geojson, 500);
    expect(result.locations).toEqual([{ name: "Duomo", lat: 43.7731, lng: 11.256 }]);
    expect(result.errors).toEqual([
      { row: 2, problems: [{ code: "notAPoint", feature: 2, geometry: "Polygon" }] },
      { row: 3, problems: [{ code: "nameEmpty" }] },
    ]);
  });

  it("keeps only as many rows as the order has room for and says how many were left out", () => {
    const csv = ["name,lat,lng", ...Array.from({ length: 5 }, (_, i) => `P${i},1,${i}`)].join("\n");
    const result = importLocations(csv, 3);
    expect(result.locations.map((l) => l.name)).toEqual(["P0", "P1", "P2"]);
    expect(result.overLimit).toBe(2);
  });

  it("says so when JSON is broken", () => {
    expect(importLocations("{ nope", 500).errors).toEqual([{ row: 1, problems: [{ code: "invalidJson" }] }]);
  });
});
