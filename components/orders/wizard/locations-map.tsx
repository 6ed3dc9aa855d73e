"use client";
// The locations step's map (loaded lazily, only on that step): the draft's locations as one
// GeoJSON layer — click the map to add, drag a point to move it, click one to select it — and
// a camera that moves to what the list asks for (a found place, an import).
import { useEffect, useState } from "react";
import { useMap } from "react-map-gl/maplibre";
import { BaseMap, type LngLatBbox } from "@/components/map/base-map";
import { DraftLocationsLayer, type DraftLocationPoint, type LngLat } from "@/components/map/layers/draft-locations-layer";
import { NEW_MISSION_VIEW } from "@/lib/map/default-view";

/** Where the map should look; a new `key` moves it again. */
export interface MapFocus {
  key: number;
  bbox: LngLatBbox;
}

export function bboxOf(points: readonly LngLat[]): LngLatBbox | null {
  if (points.length === 0) return null;
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  const pad = 0.002;
  return [Math.min(...lngs) - pad, Math.min(...lats) - pad, Math.max(...lngs) + pad, Math.max(...lats) + pad];
}

export function LocationsMap({
  label,
  locations,
  selectedId,
  hoveredId,
  canAdd,
  focus,
  onAdd,
  onMove,
  onSelect,
  onHoverChange,
}: {
  label: string;
  locations: DraftLocationPoint[];
  selectedId: string | null;
  hoveredId: string | null;
  canAdd: boolean;
  focus: MapFocus | null;
  onAdd: (at: LngLat) => void;
  onMove: (id: string, to: LngLat) => void;
  onSelect: (id: string | null) => void;
  onHoverChange: (id: string | null) => void;
}) {
  const [initialBbox] = useState<LngLatBbox>(() => bboxOf(locations) ?? NEW_MISSION_VIEW);
  return (
    <BaseMap aria-label={label} bounds={initialBbox} className="h-full w-full" maxInitialZoom={16}>
      <DraftLocationsLayer
        locations={locations}
        selectedId={selectedId}
        hoveredId={hoveredId}
        canAdd={canAdd}
        onAdd={onAdd}
        onMove={onMove}
        onSelect={onSelect}
        onHoverChange={onHoverChange}
      />
      <FollowFocus focus={focus} />
    </BaseMap>
  );
}

function FollowFocus({ focus }: { focus: MapFocus | null }) {
  const map = useMap().current;
  useEffect(() => {
    if (!map || !focus) return;
    map.fitBounds(focus.bbox, { padding: 60, maxZoom: 15, duration: 600 });
  }, [map, focus]);
  return null;
}
