"use client";

import type { Map as MaplibreMap, MapLayerMouseEvent, MapMouseEvent } from "maplibre-gl";
import { useEffect, useMemo, useRef, useState } from "react";
import { Layer, Source, useMap } from "react-map-gl/maplibre";

import { DRAFT_LOCATION_LAYER_IDS, DRAFT_LOCATIONS_SOURCE_ID, draftLocationLabelsLayer, draftLocationPointsLayer } from "./order-layer-styles";

export interface DraftLocationPoint {
  id: string;
  /** What the map writes under the point, e.g. "3 · Duomo". */
  label: string;
  lat: number;
  lng: number;
  /** Drawn in the error colour (an API error concerns it). */
  invalid?: boolean;
}

export interface LngLat {
  lat: number;
  lng: number;
}

function useFeatureFlag(map: MaplibreMap | undefined, id: string | null, key: string): void {
  useEffect(() => {
    if (!map || id === null || !map.getSource(DRAFT_LOCATIONS_SOURCE_ID)) return;
    const target = { source: DRAFT_LOCATIONS_SOURCE_ID, id };
    map.setFeatureState(target, { [key]: true });
    return () => {
      if (map.getSource(DRAFT_LOCATIONS_SOURCE_ID)) map.setFeatureState(target, { [key]: false });
    };
  }, [map, id, key]);
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The order wizard's locations as one GeoJSON source (no DOM markers, so 500 stay cheap): a click
 * on empty map adds a location there, a click on a point selects it, and a point dragged with the
 * mouse moves (drawn live, reported once on release). Coordinates are rounded to 6 decimals
 * (about 10 cm).
 */
export function DraftLocationsLayer({
  locations,
  selectedId,
  hoveredId,
  canAdd,
  onAdd,
  onMove,
  onSelect,
  onHoverChange,
}: {
  locations: DraftLocationPoint[];
  selectedId: string | null;
  hoveredId: string | null;
  canAdd: boolean;
  onAdd: (at: LngLat) => void;
  onMove: (id: string, to: LngLat) => void;
  onSelect: (id: string | null) => void;
  onHoverChange: (id: string | null) => void;
}) {
  const map = useMap().current?.getMap();
  const [drag, setDrag] = useState<{ id: string; at: LngLat } | null>(null);
  const callbacks = useRef({ onAdd, onMove, onSelect, onHoverChange, canAdd });
  useEffect(() => {
    callbacks.current = { onAdd, onMove, onSelect, onHoverChange, canAdd };
  }, [onAdd, onMove, onSelect, onHoverChange, canAdd]);

  const data = useMemo(
    () => ({
      type: "FeatureCollection" as const,
      features: locations.map((l) => {
        const at = drag?.id === l.id ? drag.at : l;
        return {
          type: "Feature" as const,
          properties: { id: l.id, label: l.label, invalid: Boolean(l.invalid) },
          geometry: { type: "Point" as const, coordinates: [at.lng, at.lat] },
        };
      }),
    }),
    [locations, drag],
  );

  useFeatureFlag(map, hoveredId, "hover");
  useFeatureFlag(map, selectedId, "selected");

  useEffect(() => {
    if (!map) return;
    const layer = DRAFT_LOCATION_LAYER_IDS.points;
    const canvas = map.getCanvas();
    let dragging: { id: string; at: LngLat } | null = null;
    // Crosshair where a click adds a location; the grab hand over a point that can be dragged.
    const rest = () => {
      canvas.style.cursor = callbacks.current.canAdd ? "crosshair" : "";
    };

    const enter = () => {
      if (!dragging) canvas.style.cursor = "grab";
    };
    const leave = () => {
      if (!dragging) rest();
      callbacks.current.onHoverChange(null);
    };
    const hover = (event: MapLayerMouseEvent) => {
      const id = event.features?.[0]?.properties.id;
      callbacks.current.onHoverChange(typeof id === "string" ? id : null);
    };
    const move = (event: MapMouseEvent) => {
      if (!dragging) return;
      dragging = { id: dragging.id, at: { lat: round6(event.lngLat.lat), lng: round6(event.lngLat.lng) } };
      setDrag(dragging);
    };
    const up = () => {
      map.off("mousemove", move);
      rest();
      const done = dragging;
      dragging = null;
      setDrag(null);
      if (done) callbacks.current.onMove(done.id, done.at);
    };
    const down = (event: MapLayerMouseEvent) => {
      const id = event.features?.[0]?.properties.id;
      if (typeof id !== "string" || event.originalEvent.button !== 0) return;
      // Keep the map still: this gesture moves the point, not the camera.
      event.preventDefault();
      callbacks.current.onSelect(id);
      canvas.style.cursor = "grabbing";
      dragging = null;
      const start = event.point;
      const firstMove = (e: MapMouseEvent) => {
        if (Math.hypot(e.point.x - start.x, e.point.y - start.y) < 3) return;
        map.off("mousemove", firstMove);
        dragging = { id, at: { lat: round6(e.lngLat.lat), lng: round6(e.lngLat.lng) } };
        setDrag(dragging);
        map.on("mousemove", move);
      };
      map.on("mousemove", firstMove);
      map.once("mouseup", () => {
        map.off("mousemove", firstMove);
        up();
      });
    };
    const click = (event: MapMouseEvent) => {
      const [feature] = map.queryRenderedFeatures(event.point, { layers: [layer] });
      if (feature) return; // selected on mousedown
      if (callbacks.current.canAdd) callbacks.current.onAdd({ lat: round6(event.lngLat.lat), lng: round6(event.lngLat.lng) });
    };

    map.on("mouseenter", layer, enter);
    map.on("mouseleave", layer, leave);
    map.on("mousemove", layer, hover);
    map.on("mousedown", layer, down);
    map.on("click", click);
    rest();
    return () => {
      map.off("mouseenter", layer, enter);
      map.off("mouseleave", layer, leave);
      map.off("mousemove", layer, hover);
      map.off("mousedown", layer, down);
      map.off("click", click);
      map.off("mousemove", move);
    };
  }, [map]);

  return (
    <Source id={DRAFT_LOCATIONS_SOURCE_ID} type="geojson" data={data} promoteId="id">
      <Layer {...draftLocationPointsLayer} />
      <Layer {...draftLocationLabelsLayer} />
    </Source>
  );
}
