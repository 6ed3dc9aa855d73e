import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { validateStyleMin } from "@maplibre/maplibre-gl-style-spec";
import { describe, expect, it } from "vitest";

import {
  MAP_FONT_BOLD,
  MAP_FONT_REGULAR,
  offlineBasemapStyle,
  overlayGlyphRequest,
  overlayGlyphsUrl,
  resolveMapStyle,
} from "./basemap-style";

const ORIGIN = "https://dashboard.example.com";
const publicDir = join(process.cwd(), "public");

describe("offlineBasemapStyle", () => {
  const style = offlineBasemapStyle(`${ORIGIN}/`);

  it("is a valid MapLibre style", () => {
    expect(validateStyleMin(style)).toEqual([]);
  });

  it("points every URL at the origin, without a doubled slash", () => {
    expect(style.glyphs).toBe(`${ORIGIN}/basemap/fonts/{fontstack}/{range}.pbf`);
    for (const source of Object.values(style.sources)) {
      expect(source.type).toBe("geojson");
      if (source.type === "geojson") expect(String(source.data)).toMatch(new RegExp(`^${ORIGIN}/basemap/[a-z-]+\\.geojson$`));
    }
  });

  it("has water, land, borders and country labels", () => {
    expect(style.layers.map((layer) => layer.id)).toEqual(["background", "land", "country-borders", "country-labels"]);
  });

  it("credits Natural Earth and says it is the offline basemap", () => {
    const attributions = Object.values(style.sources).map((source) => ("attribution" in source ? source.attribution : ""));
    expect(attributions.join(" ")).toMatch(/© .*Natural Earth.*offline basemap/);
  });

  it("has every file it references on disk (run npm run basemap:build if not)", () => {
    for (const source of Object.values(style.sources)) {
      if (source.type !== "geojson") continue;
      const path = join(publicDir, new URL(String(source.data)).pathname);
      expect(existsSync(path), path).toBe(true);
      const json = JSON.parse(readFileSync(path, "utf8")) as { type: string; features: unknown[] };
      expect(json.type).toBe("FeatureCollection");
      expect(json.features.length).toBeGreaterThan(0);
    }
    for (const [fontstack] of [MAP_FONT_REGULAR, MAP_FONT_BOLD]) {
      for (const range of ["0-255", "256-511"]) {
        const path = join(publicDir, "basemap", "fonts", String(fontstack), `${range}.pbf`);
        expect(existsSync(path), path).toBe(true);
      }
    }
    expect(existsSync(join(publicDir, "basemap", "fonts", "LICENSE-Inter.txt"))).toBe(true);
  });

  it("stays small enough to ship with the app", () => {
    const files = ["countries.geojson", "borders.geojson", "country-labels.geojson"].map((name) => join(publicDir, "basemap", name));
    const total = files.reduce((sum, path) => sum + statSync(path).size, 0);
    expect(total).toBeLessThan(400_000);
  });
});

describe("resolveMapStyle", () => {
  it("uses MAP_STYLE_URL when it is set", () => {
    expect(resolveMapStyle({ mapStyleUrl: "https://tiles.example.com/style.json", origin: ORIGIN })).toBe(
      "https://tiles.example.com/style.json",
    );
  });

  it("falls back to the offline style", () => {
    for (const mapStyleUrl of [undefined, null, ""]) {
      const style = resolveMapStyle({ mapStyleUrl, origin: ORIGIN });
      expect(typeof style).toBe("object");
      expect(typeof style === "object" && style.glyphs).toBe(overlayGlyphsUrl(ORIGIN));
    }
  });
});

describe("overlayGlyphRequest", () => {
  it("redirects our fontstacks from any glyph server to our origin", () => {
    expect(overlayGlyphRequest("https://api.maptiler.com/fonts/Inter Bold/0-255.pbf?key=abc", ORIGIN)).toBe(
      `${ORIGIN}/basemap/fonts/Inter%20Bold/0-255.pbf`,
    );
    expect(overlayGlyphRequest("https://fonts.example.com/Inter%20Regular/256-511.pbf", ORIGIN)).toBe(
      `${ORIGIN}/basemap/fonts/Inter%20Regular/256-511.pbf`,
    );
  });

  it("leaves the street style's own fonts and other requests alone", () => {
    expect(overlayGlyphRequest("https://api.maptiler.com/fonts/Noto Sans Regular/0-255.pbf", ORIGIN)).toBeNull();
    expect(overlayGlyphRequest("https://api.maptiler.com/fonts/Inter Regular,Noto Sans Regular/0-255.pbf", ORIGIN)).toBeNull();
    expect(overlayGlyphRequest("https://tiles.example.com/v3/4/8/5.pbf", ORIGIN)).toBeNull();
    expect(overlayGlyphRequest("https://tiles.example.com/%E0%A4%A.pbf", ORIGIN)).toBeNull();
  });
});
