"use client";
import { useEffect, useMemo, useState } from "react";
import { Layer, Source, useMap } from "react-map-gl/maplibre";
import { BaseMap, type LngLatBbox } from "@/components/map/base-map";
import { DrawControl, type DrawMode } from "@/components/map/draw-control";
import { DrawToolbar } from "@/components/map/draw-toolbar";
import type { DraftPolygon } from "@/components/map/use-draft-polygon";
import { polygonBbox, type PolygonGeometry } from "@/lib/geo/polygon";
import { NEW_MISSION_VIEW } from "@/lib/map/default-view";

/** A polygon to show whole, e.g. after a GeoJSON import; a new `key` fits the map again. */
export interface FitRequest {
  key: number;
  polygon: PolygonGeometry;
}

export function MissionDrawMap({
  draft,
  fit,
  problemVertices,
}: {
  draft: DraftPolygon;
  fit: FitRequest | null;
  /** 0-based indices into the outer ring that a validity issue or an API error concerns. */
  problemVertices: number[];
}) {
  const [mode, setMode] = useState<DrawMode>(draft.value ? "edit" : "polygon");
  const [initialBbox] = useState<LngLatBbox>(() => (draft.value ? polygonBbox(draft.value) : NEW_MISSION_VIEW));
  return (
    <div className="flex h-full flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-3 py-2">
        <DrawToolbar mode={mode} onModeChange={setMode} onUndo={draft.undo} onClear={draft.clear} canUndo={draft.canUndo} canClear={draft.value !== null} />
      </div>
      <BaseMap aria-label="Mission area map" bounds={initialBbox} className="min-h-0 flex-1 rounded-none border-0">
        <DrawControl value={draft.value} onChange={draft.set} mode={mode} onModeChange={setMode} />
        <FitToPolygon fit={fit} />
        <ProblemVerticesLayer polygon={draft.value} vertices={problemVertices} />
      </BaseMap>
    </div>
  );
}

function FitToPolygon({ fit }: { fit: FitRequest | null }) {
  const map = useMap().current;
  useEffect(() => {
    if (!map || !fit) return;
    map.fitBounds(polygonBbox(fit.polygon), { padding: 40, maxZoom: 17 });
  }, [map, fit]);
  return null;
}

/** Red rings around the vertices an issue concerns, so "vertex 6" can be found on the map. */
function ProblemVerticesLayer({ polygon, vertices }: { polygon: PolygonGeometry | null; vertices: number[] }) {
  const data = useMemo(() => {
    const ring = polygon?.coordinates[0] ?? [];
    const features = [...new Set(vertices)].flatMap((index) => {
      const position = ring[index];
      return position ? [{ type: "Feature" as const, properties: { vertex: index + 1 }, geometry: { type: "Point" as const, coordinates: [position[0], position[1]] } }] : [];
    });
    return { type: "FeatureCollection" as const, features };
  }, [polygon, vertices]);
  return (
    <Source id="draft-problem-vertices" type="geojson" data={data}>
      <Layer id="draft-problem-vertices" type="circle" paint={{ "circle-radius": 11, "circle-color": "rgba(0,0,0,0)", "circle-stroke-color": "#b91c1c", "circle-stroke-width": 3 }} />
    </Source>
  );
}
