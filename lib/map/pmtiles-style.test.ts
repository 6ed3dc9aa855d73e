import { validateStyleMin } from "@maplibre/maplibre-gl-style-spec";
import { describe, expect, it } from "vitest";

import { PMTILES_ATTRIBUTION, pmtilesBasemapStyle } from "./pmtiles-style";

const ORIGIN = "https://dashboard.example.com";
const style = pmtilesBasemapStyle({ archiveUrl: `${ORIGIN}/map-assets/basemap.pmtiles`, origin: ORIGIN, assetsPath: "/map-assets/0123456789abcdef" });

describe("pmtilesBasemapStyle", () => {
  it("is a valid style over the one archive on our origin, credited", () => {
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.sources).toEqual({ protomaps: { type: "vector", url: `pmtiles://${ORIGIN}/map-assets/basemap.pmtiles`, attribution: PMTILES_ATTRIBUTION } });
    expect(style.layers.map((layer) => layer.id)).toEqual(
      expect.arrayContaining(["earth", "water", "buildings", "roads_minor", "roads_major", "roads_labels_minor"]),
    );
  });

  it("names no third party: our glyphs, only our fontstacks, no sprite", () => {
    expect(style.glyphs).toBe(`${ORIGIN}/map-assets/0123456789abcdef/fonts/{fontstack}/{range}.pbf`);
    expect(style.sprite).toBeUndefined();
    const json = JSON.stringify(style);
    expect(json).not.toMatch(/Noto/);
    const fontstacks = new Set(json.match(/"Inter [A-Za-z]+"/g));
    expect([...fontstacks].sort()).toEqual(['"Inter Bold"', '"Inter Regular"']);
    expect(json.match(/https?:\/\/[^"'\s]+/g)?.filter((url) => !url.startsWith(ORIGIN) && !/protomaps\.com|openstreetmap\.org/.test(url)) ?? []).toEqual([]);
  });
});
