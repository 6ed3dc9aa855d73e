/**
 * Which basemaps the dashboard map may show, decided once on the server from the environment and
 * handed to the browser (a plain object: it crosses the server/client boundary as a prop).
 *
 * - streets: MAP_STYLE_URL, else OpenFreeMap's keyless OpenStreetMap style; or, with
 *   MAP_BASEMAP=pmtiles, a self-hosted Protomaps archive served from our own origin; null when
 *   MAP_BASEMAP=offline (tests, air-gapped installs). The browser falls back to the offline
 *   basemap by itself when streets cannot be reached.
 * - imagery: a raster XYZ tile template with its attribution (MAP_IMAGERY_URL), or null.
 * - offline: always there, served from our own origin under a content-hashed path.
 *
 * The CSP is derived from the same object (basemapOrigins), so it names exactly the origins
 * the configured basemaps fetch from.
 */

/**
 * OpenFreeMap: free, keyless, no usage limits, OpenStreetMap data in the OpenMapTiles schema. Its
 * style, TileJSON, tiles, sprites and glyphs all come from this one origin, and its TileJSON
 * carries the credit its terms ask for (OpenFreeMap, OpenMapTiles, OpenStreetMap), which the
 * attribution control shows.
 */
export const DEFAULT_STREETS_STYLE_URL = "https://tiles.openfreemap.org/styles/liberty";

export const BASEMAP_KINDS = ["streets", "imagery", "offline"] as const;
export type BasemapKind = (typeof BASEMAP_KINDS)[number];

/** Where the browser reads a self-hosted PMTiles archive (app/map-assets/basemap.pmtiles). */
export const PMTILES_ARCHIVE_PATH = "/map-assets/basemap.pmtiles";

export type StreetsBasemap = { kind: "style"; styleUrl: string } | { kind: "pmtiles"; archivePath: string };

export interface BasemapConfig {
  streets: StreetsBasemap | null;
  imagery: { tileUrl: string; attribution: string } | null;
  /** Path of the bundled offline basemap's assets on our origin, e.g. "/map-assets/3f2a…". */
  offlineAssetsPath: string;
}

export interface BasemapEnv {
  MAP_BASEMAP: "streets" | "pmtiles" | "offline";
  MAP_STYLE_URL?: string;
  MAP_IMAGERY_URL?: string;
  MAP_IMAGERY_ATTRIBUTION?: string;
}

function streetsBasemap(env: BasemapEnv): StreetsBasemap | null {
  switch (env.MAP_BASEMAP) {
    case "offline":
      return null;
    case "pmtiles":
      return { kind: "pmtiles", archivePath: PMTILES_ARCHIVE_PATH };
    case "streets":
      return { kind: "style", styleUrl: env.MAP_STYLE_URL ?? DEFAULT_STREETS_STYLE_URL };
  }
}

export function basemapConfig(env: BasemapEnv, offlineAssetsPath: string): BasemapConfig {
  return {
    streets: streetsBasemap(env),
    imagery: env.MAP_IMAGERY_URL && env.MAP_IMAGERY_ATTRIBUTION ? { tileUrl: env.MAP_IMAGERY_URL, attribution: env.MAP_IMAGERY_ATTRIBUTION } : null,
    offlineAssetsPath,
  };
}

/** The basemaps a user can pick from, in the switcher's order. */
export function availableBasemaps(config: BasemapConfig): BasemapKind[] {
  return BASEMAP_KINDS.filter((kind) => kind === "offline" || config[kind] !== null);
}

/** The basemap to show: the user's remembered choice when still offered, else the first offered. */
export function chooseBasemap(config: BasemapConfig, remembered: string | null): BasemapKind {
  const available = availableBasemaps(config);
  return available.find((kind) => kind === remembered) ?? available[0] ?? "offline";
}

/** Origin of a URL or tile template (placeholders are only allowed outside the host). */
function originOf(url: string): string {
  return new URL(url.replace(/\{[a-z]+\}/g, "0")).origin;
}

/**
 * The other origins the configured basemaps fetch from, for the CSP's connect-src and img-src.
 * A street style is trusted to keep its tiles, sprites and glyphs on its own origin (OpenFreeMap
 * does); one that does not needs MAP_STYLE_URL pointed at a copy that does. A PMTiles archive
 * comes from our own origin, whatever PMTILES_URL says (the server reads it).
 */
export function basemapOrigins(env: BasemapEnv): string[] {
  const config = basemapConfig(env, "");
  const styleUrl = config.streets?.kind === "style" ? config.streets.styleUrl : undefined;
  const origins = [styleUrl, config.imagery?.tileUrl].filter((url): url is string => url !== undefined).map(originOf);
  return [...new Set(origins)];
}
