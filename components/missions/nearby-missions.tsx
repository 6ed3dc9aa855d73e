"use client";
/**
 * The organisation's other active missions in the map's view, read through the dashboard proxy
 * (GET /missions?bbox=…, the API's bounding-box filter), shown as dashed outlines while drawing;
 * their vertices become the draw control's snap targets. A child of BaseMap.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useMap } from "react-map-gl/maplibre";

import { proxyJson } from "@/components/dashboard/proxy-json";
import { OtherMissionsLayer } from "@/components/map/layers/other-missions-layer";
import { polygonVertices, type LngLat } from "@/components/map/snap-to-vertices";
import type { Mission } from "@/components/submissions/types";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { polygonFromApi } from "@/lib/geo/polygon-from-api";

/** Below this zoom the view is too wide for snapping to mean anything; nothing is fetched. */
export const NEARBY_MISSIONS_MIN_ZOOM = 11;
/** The API's page cap: the 100 newest missions in view are snap targets. */
const PER_PAGE = 100;

/** The view's bbox widened outwards to 0.01° steps, so small pans do not refetch. */
function viewKey(map: { getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number }; getZoom(): number }): string | null {
  if (map.getZoom() < NEARBY_MISSIONS_MIN_ZOOM) return null;
  const b = map.getBounds();
  const down = (v: number) => (Math.floor(v * 100) / 100).toFixed(2);
  const up = (v: number) => (Math.ceil(v * 100) / 100).toFixed(2);
  return [down(Math.max(-180, b.getWest())), down(Math.max(-90, b.getSouth())), up(Math.min(180, b.getEast())), up(Math.min(90, b.getNorth()))].join(",");
}

export interface SnapTargets {
  vertices: LngLat[];
  /** How many missions they come from. */
  missions: number;
}

export function NearbyMissions({ excludeId, onTargets }: { excludeId?: string; onTargets: (targets: SnapTargets) => void }) {
  const map = useMap().current;
  const [bbox, setBbox] = useState<string | null>(null);

  useEffect(() => {
    if (!map) return;
    const update = () => setBbox(viewKey(map));
    update();
    map.on("moveend", update);
    return () => {
      map.off("moveend", update);
    };
  }, [map]);

  const { data } = useQuery({
    queryKey: ["nearby-missions", bbox],
    queryFn: ({ signal }) => proxyJson<{ data: Mission[] }>(`missions?bbox=${bbox}&per_page=${PER_PAGE}`, signal),
    enabled: bbox !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

  const polygons = useMemo<PolygonGeometry[]>(
    () => (bbox === null ? [] : (data?.data ?? []).filter((mission) => mission.id !== excludeId).map((mission) => polygonFromApi(mission.bounds))),
    [data, excludeId, bbox],
  );

  useEffect(() => {
    onTargets({ vertices: polygonVertices(polygons), missions: polygons.length });
  }, [polygons, onTargets]);

  return <OtherMissionsLayer polygons={polygons} />;
}
