"use client";
import { useEffect, useState } from "react";
import { useMap } from "react-map-gl/maplibre";
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

export function MissionDrawMap({ draft, mapStyleUrl, fit }: { draft: DraftPolygon; mapStyleUrl: string | null; fit: FitRequest | null }) {
  const [mode, setMode] = useState<DrawMode>(draft.value ? "edit" : "polygon");
  const [initialBbox] = useState<LngLatBbox>(() => (draft.value ? polygonBbox(draft.value) : NEW_MISSION_VIEW));
  return (
    <div className="flex h-full flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-3 py-2">
        <DrawToolbar mode={mode} onModeChange={setMode} onUndo={draft.undo} onClear={draft.clear} canUndo={draft.canUndo} canClear={draft.value !== null} />
      </div>
      <BaseMap aria-label="Mission area map" mapStyleUrl={mapStyleUrl} bounds={initialBbox} className="min-h-0 flex-1 rounded-none border-0">
        <DrawControl value={draft.value} onChange={draft.set} mode={mode} onModeChange={setMode} />
        <FitToPolygon fit={fit} />
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
