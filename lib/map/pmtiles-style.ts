/**
 * The style of a self-hosted Protomaps archive (MAP_BASEMAP=pmtiles): the layers of
 * @protomaps/basemaps' "light" flavour over our one archive, read through the pmtiles:// protocol
 * (registered by components/map/load-pmtiles-style.ts) from our own origin. Nothing comes from a
 * third party: text uses our Inter glyphs (the package names Noto Sans fontstacks, which we do not
 * ship), and no sprite is set, so point-of-interest and shield icons are left out while their
 * labels still show.
 */
import type { LayerSpecification, StyleSpecification } from "@maplibre/maplibre-gl-style-spec";
import { layers, namedFlavor } from "@protomaps/basemaps";

import { MAP_FONT_BOLD, MAP_FONT_REGULAR, overlayGlyphsUrl } from "./basemap-style";

export const PMTILES_SOURCE_ID = "protomaps";

/** Protomaps asks for its own credit beside OpenStreetMap's. */
export const PMTILES_ATTRIBUTION =
  '<a href="https://protomaps.com" target="_blank" rel="noopener">Protomaps</a> © <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap</a>';

const REGULAR = MAP_FONT_REGULAR[0] ?? "Inter Regular";
const BOLD = MAP_FONT_BOLD[0] ?? "Inter Bold";

/** Every Noto fontstack the package may name (per-script ones too) becomes one of ours. */
function withOurFonts(styleLayers: LayerSpecification[]): LayerSpecification[] {
  const json = JSON.stringify(styleLayers).replace(/"Noto Sans[^"]*"/g, (name) => (/Bold|Medium/.test(name) ? `"${BOLD}"` : `"${REGULAR}"`));
  return JSON.parse(json) as LayerSpecification[];
}

/** `archiveUrl` and `origin` absolute: MapLibre resolves them in its worker. */
export function pmtilesBasemapStyle({ archiveUrl, origin, assetsPath }: { archiveUrl: string; origin: string; assetsPath: string }): StyleSpecification {
  const flavor = { ...namedFlavor("light"), regular: REGULAR, bold: BOLD, italic: REGULAR };
  return {
    version: 8,
    name: "Photo Missions self-hosted streets (Protomaps)",
    glyphs: overlayGlyphsUrl(origin, assetsPath),
    sources: {
      [PMTILES_SOURCE_ID]: { type: "vector", url: `pmtiles://${archiveUrl}`, attribution: PMTILES_ATTRIBUTION },
    },
    layers: withOurFonts(layers(PMTILES_SOURCE_ID, flavor, { lang: "en" })),
  };
}
