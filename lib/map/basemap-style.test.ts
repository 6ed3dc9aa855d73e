import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { validateStyleMin } from "@maplibre/maplibre-gl-style-spec";
import { describe, expect, it } from "vitest";

import {
  BASEMAP_COLOURS,
  MAP_FONT_BOLD,
  MAP_FONT_REGULAR,
  OFFLINE_BASEMAP_ATTRIBUTION,
  OUTLINES_FADE_ZOOMS,
  PLACES_ATTRIBUTION,
  offlineBasemapStyle,
  overlayGlyphRequest,
  overlayGlyphsUrl,
  resolveMapStyle,
} from "./basemap-style";
import type { BasemapConfig } from "./basemap-config";

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

  it("has water, land, borders, country labels and place labels, cities on top", () => {
    expect(style.layers.map((layer) => layer.id)).toEqual(["background", "land", "country-borders", "country-labels", "place-labels", "city-labels"]);
  });

  it("has no sea or borders left at city zoom, where the 1:110m outlines would be kilometres off", () => {
    const [fadeStart, fadeEnd] = OUTLINES_FADE_ZOOMS;
    expect(fadeEnd).toBeLessThanOrEqual(10);
    const paint = (id: string) => style.layers.find((layer) => layer.id === id)?.paint as Record<string, unknown>;
    const fade = (from: unknown, to: unknown) => ["interpolate", ["linear"], ["zoom"], fadeStart, from, fadeEnd, to];
    expect(paint("background")["background-color"]).toEqual(fade(BASEMAP_COLOURS.water, BASEMAP_COLOURS.land));
    expect(paint("country-borders")["line-opacity"]).toEqual(fade(1, 0));
  });

  it("draws every layer but the background from a source it defines", () => {
    for (const layer of style.layers) {
      if (layer.type === "background") continue;
      expect(Object.keys(style.sources), layer.id).toContain(layer.source);
    }
  });

  it("writes every label in a fontstack we ship glyphs for", () => {
    const shipped = [MAP_FONT_REGULAR, MAP_FONT_BOLD];
    const labelLayers = style.layers.filter((layer) => layer.type === "symbol");
    expect(labelLayers.length).toBeGreaterThan(0);
    for (const layer of labelLayers) {
      expect(shipped, layer.id).toContainEqual(layer.layout?.["text-font"]);
    }
  });

  it("credits Natural Earth and GeoNames (CC BY 4.0), with no words of its own (the switcher names the basemap in the reader's language)", () => {
    const attributions = Object.values(style.sources).map((source) => ("attribution" in source ? source.attribution : ""));
    expect(attributions).toContain(OFFLINE_BASEMAP_ATTRIBUTION);
    expect(attributions).toContain(PLACES_ATTRIBUTION);
    expect(attributions.join(" ")).toMatch(/© .*Natural Earth/);
    expect(attributions.join(" ")).not.toMatch(/offline|streets/i);
    expect(PLACES_ATTRIBUTION).toMatch(/GeoNames.*CC BY 4\.0/);
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
    for (const licence of ["LICENSE-world-atlas.txt", "LICENSE-places.txt", "fonts/LICENSE-Inter.txt"]) {
      expect(existsSync(join(publicDir, "basemap", licence)), licence).toBe(true);
    }
  });

  it("stays small enough to ship with the app", () => {
    const sizeOf = (names: string[]) => names.reduce((sum, name) => sum + statSync(join(publicDir, "basemap", name)).size, 0);
    expect(sizeOf(["countries.geojson", "borders.geojson", "country-labels.geojson"])).toBeLessThan(400_000);
    // The place labels are fetched whole when the map opens (about 200 kB gzipped).
    expect(sizeOf(["places.geojson"])).toBeLessThan(1_500_000);
  });
});

describe("resolveMapStyle", () => {
  const ASSETS = "/map-assets/0123456789abcdef";
  const config: BasemapConfig = {
    streets: { kind: "style", styleUrl: "https://tiles.example.com/style.json" },
    imagery: { tileUrl: "https://imagery.example.net/{z}/{x}/{y}.jpg", attribution: "© Example Imagery" },
    offlineAssetsPath: ASSETS,
  };

  it("uses the street style's URL for streets", () => {
    expect(resolveMapStyle({ kind: "streets", config, origin: ORIGIN })).toBe("https://tiles.example.com/style.json");
  });

  it("draws imagery as one raster layer with its attribution, our glyphs for overlays", () => {
    const style = resolveMapStyle({ kind: "imagery", config, origin: ORIGIN });
    if (typeof style !== "object") throw new Error("expected a style object");
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.sources.imagery).toMatchObject({ type: "raster", tiles: [config.imagery?.tileUrl], attribution: "© Example Imagery" });
    expect(style.glyphs).toBe(overlayGlyphsUrl(ORIGIN, ASSETS));
  });

  it("serves the offline style from the hashed assets path, also when a kind is not configured", () => {
    for (const [kind, withConfig] of [
      ["offline", config],
      ["streets", { ...config, streets: null }],
      ["imagery", { ...config, imagery: null }],
    ] as const) {
      const style = resolveMapStyle({ kind, config: withConfig, origin: ORIGIN });
      if (typeof style !== "object") throw new Error("expected a style object");
      expect(style.glyphs).toBe(`${ORIGIN}${ASSETS}/fonts/{fontstack}/{range}.pbf`);
      expect(String(style.sources.countries?.type === "geojson" && style.sources.countries.data)).toBe(`${ORIGIN}${ASSETS}/countries.geojson`);
    }
  });
});

describe("overlayGlyphRequest", () => {
  it("redirects our fontstacks from any glyph server to our origin", () => {
    expect(overlayGlyphRequest("https://api.maptiler.com/fonts/Inter Bold/0-255.pbf?key=abc", ORIGIN)).toBe(`${ORIGIN}/basemap/fonts/Inter%20Bold/0-255.pbf`);
    expect(overlayGlyphRequest("https://fonts.example.com/Inter%20Regular/256-511.pbf", ORIGIN)).toBe(`${ORIGIN}/basemap/fonts/Inter%20Regular/256-511.pbf`);
  });

  it("leaves the street style's own fonts and other requests alone", () => {
    expect(overlayGlyphRequest("https://api.maptiler.com/fonts/Noto Sans Regular/0-255.pbf", ORIGIN)).toBeNull();
    expect(overlayGlyphRequest("https://api.maptiler.com/fonts/Inter Regular,Noto Sans Regular/0-255.pbf", ORIGIN)).toBeNull();
    expect(overlayGlyphRequest("https://tiles.example.com/v3/4/8/5.pbf", ORIGIN)).toBeNull();
    expect(overlayGlyphRequest("https://tiles.example.com/%E0%A4%A.pbf", ORIGIN)).toBeNull();
  });
});
