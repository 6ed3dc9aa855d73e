import { describe, expect, it } from "vitest";

import { parseEnv } from "@/lib/env";
import { DEFAULT_STREETS_STYLE_URL, PMTILES_ARCHIVE_PATH, availableBasemaps, basemapConfig, basemapOrigins, chooseBasemap } from "./basemap-config";

const ASSETS = "/map-assets/0123456789abcdef";
const IMAGERY = { MAP_IMAGERY_URL: "https://imagery.example.net/tiles/{z}/{x}/{y}.jpg?key=k", MAP_IMAGERY_ATTRIBUTION: "© Example Imagery" };

describe("basemapConfig", () => {
  it("shows OpenFreeMap's streets with no configuration, offline as the fallback", () => {
    const config = basemapConfig(parseEnv({}), ASSETS);
    expect(config).toEqual({ streets: { kind: "style", styleUrl: DEFAULT_STREETS_STYLE_URL }, imagery: null, offlineAssetsPath: ASSETS });
    expect(availableBasemaps(config)).toEqual(["streets", "offline"]);
  });

  it("uses MAP_STYLE_URL for streets, and MAP_BASEMAP=offline removes streets altogether", () => {
    expect(basemapConfig(parseEnv({ MAP_STYLE_URL: "https://maps.example.org/style.json" }), ASSETS).streets).toEqual({
      kind: "style",
      styleUrl: "https://maps.example.org/style.json",
    });
    const offline = basemapConfig(parseEnv({ MAP_BASEMAP: "offline", MAP_STYLE_URL: "https://maps.example.org/style.json" }), ASSETS);
    expect(offline.streets).toBeNull();
    expect(availableBasemaps(offline)).toEqual(["offline"]);
  });

  it("reads streets from the self-hosted PMTiles archive on our origin with MAP_BASEMAP=pmtiles", () => {
    const env = parseEnv({ MAP_BASEMAP: "pmtiles", PMTILES_URL: "https://bucket.example.com/europe.pmtiles" });
    expect(basemapConfig(env, ASSETS).streets).toEqual({ kind: "pmtiles", archivePath: PMTILES_ARCHIVE_PATH });
    expect(basemapOrigins(env)).toEqual([]);
    expect(() => parseEnv({ PMTILES_PATH: "/srv/a.pmtiles", PMTILES_URL: "https://bucket.example.com/a.pmtiles" })).toThrow(/PMTILES_URL/);
  });

  it("offers imagery when a tile template and its attribution are configured", () => {
    const config = basemapConfig(parseEnv({ MAP_BASEMAP: "offline", ...IMAGERY }), ASSETS);
    expect(config.imagery).toEqual({ tileUrl: IMAGERY.MAP_IMAGERY_URL, attribution: "© Example Imagery" });
    expect(availableBasemaps(config)).toEqual(["imagery", "offline"]);
  });

  it("refuses imagery without attribution, or without {z}/{x}/{y}, or with placeholders in the host", () => {
    expect(() => parseEnv({ MAP_IMAGERY_URL: IMAGERY.MAP_IMAGERY_URL })).toThrow(/MAP_IMAGERY_ATTRIBUTION/);
    expect(() => parseEnv({ ...IMAGERY, MAP_IMAGERY_URL: "https://imagery.example.net/{z}/{x}.jpg" })).toThrow(/MAP_IMAGERY_URL/);
    expect(() => parseEnv({ ...IMAGERY, MAP_IMAGERY_URL: "https://{s}.imagery.example.net/{z}/{x}/{y}.jpg" })).toThrow(/MAP_IMAGERY_URL/);
    expect(() => parseEnv({ MAP_BASEMAP: "satellite" })).toThrow(/MAP_BASEMAP/);
  });
});

describe("chooseBasemap", () => {
  const config = basemapConfig(parseEnv(IMAGERY), ASSETS);

  it("keeps a remembered choice that is still offered, else the first one offered", () => {
    expect(chooseBasemap(config, "imagery")).toBe("imagery");
    expect(chooseBasemap(config, "offline")).toBe("offline");
    expect(chooseBasemap(config, null)).toBe("streets");
    expect(chooseBasemap(config, "satellite")).toBe("streets");
    expect(chooseBasemap(basemapConfig(parseEnv({ MAP_BASEMAP: "offline" }), ASSETS), "streets")).toBe("offline");
  });
});

describe("basemapOrigins", () => {
  it("names exactly the origins of the configured street style and imagery", () => {
    expect(basemapOrigins(parseEnv({}))).toEqual(["https://tiles.openfreemap.org"]);
    expect(basemapOrigins(parseEnv({ MAP_STYLE_URL: "https://maps.example.org:8443/s.json", ...IMAGERY }))).toEqual([
      "https://maps.example.org:8443",
      "https://imagery.example.net",
    ]);
    expect(basemapOrigins(parseEnv({ MAP_BASEMAP: "offline" }))).toEqual([]);
  });
});
