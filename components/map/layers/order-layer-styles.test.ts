import { validateStyleMin } from "@maplibre/maplibre-gl-style-spec";
import { describe, expect, it } from "vitest";

import { LOCATION_STATES } from "@/components/orders/order-progress";
import { BASEMAP_COLOURS, offlineBasemapStyle } from "@/lib/map/basemap-style";

import { ORDER_LOCATION_STATE_COLOURS, ORDER_LOCATIONS_SOURCE_ID, orderLocationLabelsLayer, orderLocationPointsLayer } from "./order-layer-styles";

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const [r = 0, g = 0, b = 0] = channels;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

describe("order location states on the map", () => {
  it("have a colour for each of the seven states, all different", () => {
    expect(Object.keys(ORDER_LOCATION_STATE_COLOURS).sort()).toEqual([...LOCATION_STATES].sort());
    expect(new Set(Object.values(ORDER_LOCATION_STATE_COLOURS)).size).toBe(LOCATION_STATES.length);
  });

  it("reach 3:1 contrast against white (their outline), the basemap's land and water", () => {
    for (const [state, colour] of Object.entries(ORDER_LOCATION_STATE_COLOURS)) {
      for (const background of ["#ffffff", BASEMAP_COLOURS.land, BASEMAP_COLOURS.water]) {
        expect(contrast(colour, background), `${state} on ${background}`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it("form a valid style on top of the offline basemap, the state in words under each name", () => {
    const style = offlineBasemapStyle("https://example.com");
    style.sources[ORDER_LOCATIONS_SOURCE_ID] = { type: "geojson", data: { type: "FeatureCollection", features: [] }, promoteId: "id" };
    style.layers.push({ ...orderLocationPointsLayer, source: ORDER_LOCATIONS_SOURCE_ID }, { ...orderLocationLabelsLayer, source: ORDER_LOCATIONS_SOURCE_ID });
    expect(validateStyleMin(style)).toEqual([]);
    expect(JSON.stringify(orderLocationLabelsLayer.layout?.["text-field"])).toContain('["get","stateLabel"]');
  });
});
