"use client";

import { useMemo } from "react";
import { Layer, Source } from "react-map-gl/maplibre";

import type { PolygonGeometry } from "@/lib/geo/polygon";

import { MISSION_BOUNDS_SOURCE_ID, missionBoundsFillLayer, missionBoundsOutlineLayer } from "./layer-styles";

export interface MissionBoundsLayerProps {
  /** The mission's bounds; nothing is drawn for null. */
  polygon: PolygonGeometry | null;
  /** Layer id to insert these layers below (e.g. a points layer), if any. */
  beforeId?: string;
}

/** A saved mission's area: a light fill and a slate outline, below any submission points. */
export function MissionBoundsLayer({ polygon, beforeId }: MissionBoundsLayerProps) {
  const data = useMemo(
    () => ({
      type: "FeatureCollection" as const,
      features: polygon ? [{ type: "Feature" as const, properties: {}, geometry: polygon }] : [],
    }),
    [polygon],
  );
  return (
    <Source id={MISSION_BOUNDS_SOURCE_ID} type="geojson" data={data}>
      <Layer {...missionBoundsFillLayer} beforeId={beforeId} />
      <Layer {...missionBoundsOutlineLayer} beforeId={beforeId} />
    </Source>
  );
}
