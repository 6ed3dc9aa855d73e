// Checks the committed place labels (public/basemap/places.geojson, built by
// scripts/basemap/place-layer.mjs) against what the offline style expects of them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PbfReader } from "pbf";
import { describe, expect, it } from "vitest";

import { MAP_FONT_BOLD, MAP_FONT_REGULAR, PLACE_CLASSES, offlineBasemapStyle } from "./basemap-style";

interface Place {
  type: "Feature";
  properties: { name: string; class: string; min_zoom: number };
  geometry: { type: string; coordinates: number[] };
}

const basemapDir = join(process.cwd(), "public", "basemap");
const places = (JSON.parse(readFileSync(join(basemapDir, "places.geojson"), "utf8")) as { features: Place[] }).features;

/** Codepoints that have a glyph in every range file of `fontstack`, read as MapLibre reads them. */
function glyphCodePoints(fontstack: string): Set<number> {
  const ids = new Set<number>();
  for (const range of ["0-255", "256-511"]) {
    const pbf = new PbfReader(readFileSync(join(basemapDir, "fonts", fontstack, `${range}.pbf`)));
    pbf.readFields((stackTag, _, stacks) => {
      if (stackTag !== 1) return;
      stacks.readMessage((fieldTag, __, stack) => {
        if (fieldTag !== 3) return;
        stack.readMessage((glyphTag, ___, glyph) => {
          if (glyphTag === 1) ids.add(glyph.readVarint());
        }, null);
      }, null);
    }, null);
  }
  return ids;
}

describe("places.geojson", () => {
  it("has thousands of places, each a point with a name, a class and a label zoom only", () => {
    expect(places.length).toBeGreaterThan(5000);
    const malformed = places.filter(
      (place) =>
        place.type !== "Feature" ||
        place.geometry.type !== "Point" ||
        Object.keys(place.properties).sort().join() !== "class,min_zoom,name" ||
        !(PLACE_CLASSES as readonly string[]).includes(place.properties.class),
    );
    expect(malformed).toEqual([]);
  });

  it("puts each place on the map within its source's zooms, at 5 decimals at most", () => {
    const source = offlineBasemapStyle("https://example.com").sources.places;
    const maxzoom = source?.type === "geojson" ? (source.maxzoom ?? 18) : 0;
    const misplaced = places.filter(({ properties: { min_zoom: zoom }, geometry: { coordinates } }) => {
      const [lon = NaN, lat = NaN] = coordinates;
      return (
        !Number.isInteger(zoom) ||
        zoom < 0 ||
        zoom > maxzoom ||
        coordinates.length !== 2 ||
        !(Math.abs(lon) <= 180 && Math.abs(lat) <= 90) ||
        coordinates.some((value) => Math.round(value * 1e5) / 1e5 !== value)
      );
    });
    expect(misplaced).toEqual([]);
  });

  it("shows the biggest cities at world zoom and the others later", () => {
    const zoomOf = (name: string) => places.find((place) => place.properties.name === name)?.properties.min_zoom;
    for (const city of ["Tokyo", "Delhi", "São Paulo", "Lagos", "London"]) expect(zoomOf(city), city).toBeLessThanOrEqual(4);
    expect(zoomOf("Florence")).toBeGreaterThan(4);
    expect(zoomOf("Florence")).toBeLessThanOrEqual(8);
  });

  it("lists places in the order their labels appear, so earlier ones are placed first", () => {
    const zooms = places.map((place) => place.properties.min_zoom);
    expect(zooms).toEqual([...zooms].sort((a, b) => a - b));
  });

  it("names every place with characters both fontstacks have glyphs for", () => {
    for (const [fontstack = ""] of [MAP_FONT_REGULAR, MAP_FONT_BOLD]) {
      const glyphs = glyphCodePoints(fontstack);
      expect(glyphs.has("é".codePointAt(0) ?? 0) && !glyphs.has("ḩ".codePointAt(0) ?? 0), fontstack).toBe(true);
      const missing = new Set<string>();
      for (const { properties } of places) {
        for (const char of properties.name) if (!glyphs.has(char.codePointAt(0) ?? 0)) missing.add(char);
      }
      expect([...missing], fontstack).toEqual([]);
    }
    expect(places.every(({ properties }) => properties.name.trim() === properties.name && properties.name !== "")).toBe(true);
  });
});
