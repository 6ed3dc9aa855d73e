"use client";

// Loads what a PMTiles basemap needs only when one is configured: the pmtiles protocol (registered
// with MapLibre once per page) and the Protomaps style layers.
import type { StyleSpecification } from "@maplibre/maplibre-gl-style-spec";

let protocolRegistered: Promise<void> | null = null;

function registerProtocol(): Promise<void> {
  protocolRegistered ??= Promise.all([import("maplibre-gl"), import("pmtiles")]).then(([maplibre, { Protocol }]) => {
    maplibre.addProtocol("pmtiles", new Protocol().tile);
  });
  return protocolRegistered;
}

export async function loadPmtilesStyle(options: { archiveUrl: string; origin: string; assetsPath: string }): Promise<StyleSpecification> {
  const [, { pmtilesBasemapStyle }] = await Promise.all([registerProtocol(), import("@/lib/map/pmtiles-style")]);
  return pmtilesBasemapStyle(options);
}
