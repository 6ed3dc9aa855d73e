"use client";

import type { Map as MaplibreMap, MapMouseEvent } from "maplibre-gl";
import { useEffect, useMemo, useRef } from "react";
import { Layer, Source, useMap } from "react-map-gl/maplibre";

import {
  ORDER_LOCATION_LAYER_IDS,
  ORDER_LOCATIONS_SOURCE_ID,
  orderLocationLabelsLayer,
  orderLocationPointsLayer,
  type OrderLocationState,
} from "./order-layer-styles";

export interface OrderLocationPoint {
  id: string;
  name: string;
  lat: number;
  lng: number;
  state: OrderLocationState;
  /** The state in words, drawn under the name. */
  stateLabel: string;
}

function useFeatureFlag(map: MaplibreMap | undefined, id: string | null, key: string): void {
  useEffect(() => {
    if (!map || id === null || !map.getSource(ORDER_LOCATIONS_SOURCE_ID)) return;
    const target = { source: ORDER_LOCATIONS_SOURCE_ID, id };
    map.setFeatureState(target, { [key]: true });
    return () => {
      if (map.getSource(ORDER_LOCATIONS_SOURCE_ID)) map.setFeatureState(target, { [key]: false });
    };
  }, [map, id, key]);
}

/**
 * An order's locations coloured by state (waiting, assigned, verifying, retake, delivered, given
 * up) with their names and states in words, one GeoJSON source; hover and selection as feature state, clicks reported by id.
 */
export function OrderLocationsLayer({
  locations,
  selectedId,
  hoveredId,
  onSelect,
  onHoverChange,
}: {
  locations: OrderLocationPoint[];
  selectedId: string | null;
  hoveredId: string | null;
  onSelect: (id: string | null) => void;
  onHoverChange: (id: string | null) => void;
}) {
  const map = useMap().current?.getMap();
  const callbacks = useRef({ onSelect, onHoverChange });
  useEffect(() => {
    callbacks.current = { onSelect, onHoverChange };
  }, [onSelect, onHoverChange]);

  const data = useMemo(
    () => ({
      type: "FeatureCollection" as const,
      features: locations.map((l) => ({
        type: "Feature" as const,
        properties: { id: l.id, name: l.name, state: l.state, stateLabel: l.stateLabel },
        geometry: { type: "Point" as const, coordinates: [l.lng, l.lat] },
      })),
    }),
    [locations],
  );

  useFeatureFlag(map, hoveredId, "hover");
  useFeatureFlag(map, selectedId, "selected");

  useEffect(() => {
    if (!map) return;
    const layer = ORDER_LOCATION_LAYER_IDS.points;
    const canvas = map.getCanvas();
    const enter = () => {
      canvas.style.cursor = "pointer";
    };
    const leave = () => {
      canvas.style.removeProperty("cursor");
      callbacks.current.onHoverChange(null);
    };
    const move = (event: MapMouseEvent & { features?: { properties: Record<string, unknown> }[] }) => {
      const id = event.features?.[0]?.properties.id;
      callbacks.current.onHoverChange(typeof id === "string" ? id : null);
    };
    const click = (event: MapMouseEvent) => {
      const [feature] = map.queryRenderedFeatures(event.point, { layers: [layer] });
      const id = feature?.properties.id;
      if (typeof id === "string") callbacks.current.onSelect(id);
    };
    map.on("mouseenter", layer, enter);
    map.on("mouseleave", layer, leave);
    map.on("mousemove", layer, move);
    map.on("click", click);
    return () => {
      map.off("mouseenter", layer, enter);
      map.off("mouseleave", layer, leave);
      map.off("mousemove", layer, move);
      map.off("click", click);
    };
  }, [map]);

  return (
    <Source id={ORDER_LOCATIONS_SOURCE_ID} type="geojson" data={data} promoteId="id">
      <Layer {...orderLocationPointsLayer} />
      <Layer {...orderLocationLabelsLayer} />
    </Source>
  );
}
