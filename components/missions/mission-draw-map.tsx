"use client";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Layer, Source, useMap, type MapRef } from "react-map-gl/maplibre";
import { BaseMap, type LngLatBbox } from "@/components/map/base-map";
import { DrawControl, type DrawMode } from "@/components/map/draw-control";
import { DrawToolbar } from "@/components/map/draw-toolbar";
import { KeyboardVertexEditor } from "@/components/map/keyboard-vertex-editor";
import { MapSearch, type SearchTarget } from "@/components/map/map-search";
import type { DraftPolygon } from "@/components/map/use-draft-polygon";
import { polygonBbox, type PolygonGeometry } from "@/lib/geo/polygon";
import { NEW_MISSION_VIEW } from "@/lib/map/default-view";
import { NearbyMissions, type SnapTargets } from "./nearby-missions";

/** Zoom a search result without an extent opens at: a few streets around it. */
const SEARCH_ZOOM = 15;

/** A polygon to show whole, e.g. after a GeoJSON import; a new `key` fits the map again. */
export interface FitRequest {
  key: number;
  polygon: PolygonGeometry;
}

export function MissionDrawMap({
  draft,
  fit,
  problemVertices,
  missionId,
  geocoder,
}: {
  draft: DraftPolygon;
  fit: FitRequest | null;
  /** 0-based indices into the outer ring that a validity issue or an API error concerns. */
  problemVertices: number[];
  /** The mission being edited: not a snap target for itself. */
  missionId?: string;
  /** The server has a geocoder (GEOCODER_URL) for the search box. */
  geocoder: boolean;
}) {
  const t = useTranslations("missions.editor");
  const [mode, setMode] = useState<DrawMode>(draft.value ? "edit" : "polygon");
  const [initialBbox] = useState<LngLatBbox>(() => (draft.value ? polygonBbox(draft.value) : NEW_MISSION_VIEW));
  const [snapTargets, setSnapTargets] = useState<SnapTargets>({ vertices: [], missions: 0 });
  const [selectedVertex, setSelectedVertex] = useState(0);
  const [mapReady, setMapReady] = useState(false);
  const mapRef = useRef<MapRef>(null);
  // Keyboard editing works on simple polygons, as the mouse editing does (terra-draw has no holes).
  const keyboardEditable = mode === "edit" && draft.value !== null && draft.value.coordinates.length === 1;

  const goTo = useCallback((target: SearchTarget) => {
    const map = mapRef.current;
    if (!map) return;
    if (target.bbox) map.fitBounds(target.bbox, { padding: 40, maxZoom: SEARCH_ZOOM, duration: 0 });
    else map.jumpTo({ center: [target.lng, target.lat], zoom: SEARCH_ZOOM });
  }, []);

  const projector = useMemo(
    () =>
      mapReady
        ? {
            project: (lngLat: [number, number]) => mapRef.current?.project(lngLat) ?? { x: 0, y: 0 },
            unproject: (point: [number, number]) => mapRef.current?.unproject(point) ?? { lng: 0, lat: 0 },
          }
        : null,
    [mapReady],
  );

  return (
    <div className="flex h-full flex-col">
      <div className="flex flex-wrap items-start gap-3 border-b border-slate-200 bg-white px-3 py-2">
        {/* A fixed width: a longer or shorter hint must not reflow the row (and move the map). */}
        <DrawToolbar
          className="w-full sm:w-[30rem]"
          mode={mode}
          onModeChange={setMode}
          onUndo={draft.undo}
          onClear={draft.clear}
          canUndo={draft.canUndo}
          canClear={draft.value !== null}
        />
        <div className="flex flex-col gap-1">
          <MapSearch geocoder={geocoder} onChoose={goTo} />
          <p className="text-xs text-slate-600" aria-live="polite" data-testid="snap-status">
            {snapTargets.missions > 0 ? t("snaps", { count: snapTargets.missions }) : ""}
          </p>
        </div>
        {keyboardEditable && draft.value ? (
          <KeyboardVertexEditor
            polygon={draft.value}
            selected={selectedVertex}
            onSelect={setSelectedVertex}
            onChange={draft.set}
            onUndo={draft.undo}
            canUndo={draft.canUndo}
            projector={projector}
          />
        ) : null}
      </div>
      <BaseMap ref={mapRef} aria-label={t("mapLabel")} bounds={initialBbox} onLoad={() => setMapReady(true)} className="min-h-0 flex-1 rounded-none border-0">
        <NearbyMissions excludeId={missionId} onTargets={setSnapTargets} />
        <DrawControl value={draft.value} onChange={draft.set} mode={mode} onModeChange={setMode} snapVertices={snapTargets.vertices} />
        <FitToPolygon fit={fit} />
        <ProblemVerticesLayer polygon={draft.value} vertices={problemVertices} />
        {keyboardEditable ? <SelectedVertexLayer polygon={draft.value} vertex={selectedVertex} /> : null}
      </BaseMap>
    </div>
  );
}

/** The vertex the keyboard editor works on: a thick emerald ring around it. */
function SelectedVertexLayer({ polygon, vertex }: { polygon: PolygonGeometry | null; vertex: number }) {
  const data = useMemo(() => {
    const ring = polygon?.coordinates[0] ?? [];
    const position = ring[Math.min(vertex, Math.max(0, ring.length - 2))];
    return {
      type: "FeatureCollection" as const,
      features: position ? [{ type: "Feature" as const, properties: {}, geometry: { type: "Point" as const, coordinates: [position[0], position[1]] } }] : [],
    };
  }, [polygon, vertex]);
  return (
    <Source id="draft-selected-vertex" type="geojson" data={data}>
      <Layer
        id="draft-selected-vertex"
        type="circle"
        paint={{ "circle-radius": 9, "circle-color": "rgba(0,0,0,0)", "circle-stroke-color": "#047857", "circle-stroke-width": 3 }}
      />
    </Source>
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
      return position
        ? [{ type: "Feature" as const, properties: { vertex: index + 1 }, geometry: { type: "Point" as const, coordinates: [position[0], position[1]] } }]
        : [];
    });
    return { type: "FeatureCollection" as const, features };
  }, [polygon, vertices]);
  return (
    <Source id="draft-problem-vertices" type="geojson" data={data}>
      <Layer
        id="draft-problem-vertices"
        type="circle"
        paint={{ "circle-radius": 11, "circle-color": "rgba(0,0,0,0)", "circle-stroke-color": "#b91c1c", "circle-stroke-width": 3 }}
      />
    </Source>
  );
}
