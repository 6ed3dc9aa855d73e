import { describe, expect, it } from "vitest";

import { importPolygonGeoJson, MAX_IMPORT_CHARACTERS } from "./import-geojson";

const ring = [
  [11.24, 43.76, 52.5],
  [11.25, 43.76, 53],
  [11.25, 43.77, 51],
  [11.24, 43.76, 52.5],
];
const flatRing = ring.map(([lng, lat]) => [lng, lat]);
const polygon = { type: "Polygon", coordinates: [ring] };
const point = { type: "Point", coordinates: [11.2, 43.7] };

function importJson(value: unknown) {
  return importPolygonGeoJson(JSON.stringify(value));
}

function expectPolygon(result: ReturnType<typeof importPolygonGeoJson>) {
  if (!result.ok) throw new Error(`expected a polygon, got: ${result.error}`);
  return result.polygon;
}

function expectError(result: ReturnType<typeof importPolygonGeoJson>): string {
  if (result.ok) throw new Error("expected an error");
  return result.error;
}

describe("importPolygonGeoJson", () => {
  it("reads a bare Polygon and strips altitudes", () => {
    expect(expectPolygon(importJson(polygon))).toEqual({ type: "Polygon", coordinates: [flatRing] });
  });

  it("keeps holes for the validator to judge", () => {
    const hole = [
      [11.245, 43.762],
      [11.246, 43.762],
      [11.246, 43.763],
      [11.245, 43.762],
    ];
    expect(expectPolygon(importJson({ type: "Polygon", coordinates: [ring, hole] })).coordinates).toHaveLength(2);
  });

  it("unwraps a MultiPolygon with one part, a Feature and a FeatureCollection", () => {
    const multi = { type: "MultiPolygon", coordinates: [[ring]] };
    const feature = { type: "Feature", properties: { name: "Oltrarno" }, geometry: multi };
    const collection = { type: "FeatureCollection", features: [{ type: "Feature", properties: {}, geometry: point }, feature] };
    for (const value of [multi, feature, collection]) {
      expect(expectPolygon(importJson(value)).coordinates).toEqual([flatRing]);
    }
  });

  it("unwraps a GeometryCollection", () => {
    const value = { type: "GeometryCollection", geometries: [point, polygon] };
    expect(expectPolygon(importJson(value)).coordinates).toEqual([flatRing]);
  });

  it("rounds coordinates to 6 decimals like drawn polygons", () => {
    const precise = {
      type: "Polygon",
      coordinates: [
        [
          [11.1234567891, 43.1],
          [11.2, 43.1],
          [11.2, 43.2],
          [11.1234567891, 43.1],
        ],
      ],
    };
    expect(expectPolygon(importJson(precise)).coordinates[0]?.[0]).toEqual([11.123457, 43.1]);
  });

  it("refuses more than one polygon, naming where they are", () => {
    const collection = {
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: {}, geometry: polygon },
        { type: "Feature", properties: {}, geometry: point },
        { type: "Feature", properties: {}, geometry: polygon },
      ],
    };
    expect(expectError(importJson(collection))).toBe("The file contains 2 polygons (feature 1, feature 3); upload one area at a time.");
  });

  it("refuses a MultiPolygon with several parts", () => {
    const multi = { type: "MultiPolygon", coordinates: [[ring], [ring]] };
    expect(expectError(importJson(multi))).toMatch(/^The file is a MultiPolygon with 2 parts; mission bounds are one area\./);
  });

  it("refuses files without a polygon", () => {
    expect(expectError(importJson({ type: "FeatureCollection", features: [] }))).toBe("The file contains no polygon. Mission bounds must be a Polygon.");
    expect(expectError(importJson({ type: "Feature", properties: {}, geometry: null }))).toMatch(/no polygon/);
    expect(expectError(importJson(point))).toMatch(/no polygon/);
  });

  it("refuses text that is not JSON or not GeoJSON", () => {
    expect(expectError(importPolygonGeoJson("<kml></kml>"))).toMatch(/^The file is not valid JSON/);
    expect(expectError(importJson({ type: "Topology", objects: {} }))).toBe('The file has type "Topology", which is not GeoJSON.');
    expect(expectError(importJson([polygon]))).toBe("The file is an array, not a GeoJSON object.");
  });

  it("refuses malformed coordinates", () => {
    expect(expectError(importJson({ type: "Polygon", coordinates: [] }))).toBe("The file has no coordinates.");
    expect(expectError(importJson({ type: "Polygon", coordinates: [[[11.2], [11.3, 43]]] }))).toBe(
      "The file has a position that is not [longitude, latitude].",
    );
    expect(expectError(importJson({ type: "Feature", geometry: { type: "Polygon", coordinates: [["a"]] } }))).toBe(
      "The feature has a position that is not [longitude, latitude].",
    );
  });

  it("refuses projected coordinate systems but accepts WGS 84 names", () => {
    const projected = { ...polygon, crs: { type: "name", properties: { name: "urn:ogc:def:crs:EPSG::3857" } } };
    expect(expectError(importJson(projected))).toMatch(/EPSG::3857; export it as WGS 84/);
    const wgs84 = { ...polygon, crs: { type: "name", properties: { name: "urn:ogc:def:crs:OGC:1.3:CRS84" } } };
    expect(importJson(wgs84).ok).toBe(true);
  });

  it("refuses oversized files before parsing them", () => {
    expect(expectError(importPolygonGeoJson(" ".repeat(MAX_IMPORT_CHARACTERS + 1)))).toMatch(/^The file is too large/);
  });
});
