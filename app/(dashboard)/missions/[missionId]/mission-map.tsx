"use client";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { useMap } from "react-map-gl/maplibre";
import { BaseMap } from "@/components/map/base-map";
import { MissionBoundsLayer } from "@/components/map/layers/mission-bounds-layer";
import { SUBMISSION_INTERACTIVE_LAYER_IDS, type SubmissionStatus } from "@/components/map/layers/layer-styles";
import { SubmissionsLayer } from "@/components/map/layers/submissions-layer";
import { MapLegend } from "@/components/map/map-legend";
import type { SubmissionPoints } from "@/components/submissions/queries";
import { polygonBbox, type PolygonGeometry } from "@/lib/geo/polygon";

/** Marks, for people and for measurement, when a set of points has been drawn. */
export const POINTS_DRAWN_MARK = "pm:submission-points-drawn";

const EMPTY: SubmissionPoints = { type: "FeatureCollection", features: [], meta: { count: 0, unlocated: 0 } };

export function MissionMap({
  bounds,
  points,
  selectedId,
  hoveredId,
  onSelect,
  onHover,
}: {
  bounds: PolygonGeometry;
  points: SubmissionPoints | null;
  selectedId: string | null;
  hoveredId: string | null;
  onSelect: (id: string | null) => void;
  onHover: (id: string | null) => void;
}) {
  const t = useTranslations("missions.detail");
  const bbox = useMemo(() => polygonBbox(bounds), [bounds]);
  const counts = useMemo(() => {
    const c: Partial<Record<SubmissionStatus, number>> = {};
    for (const f of points?.features ?? []) c[f.properties.status] = (c[f.properties.status] ?? 0) + 1;
    return c;
  }, [points]);

  return (
    <BaseMap aria-label={t("mapLabel")} bounds={bbox} interactiveLayerIds={SUBMISSION_INTERACTIVE_LAYER_IDS} className="h-full w-full">
      <MissionBoundsLayer polygon={bounds} />
      <SubmissionsLayer data={points ?? EMPTY} selectedId={selectedId} hoveredId={hoveredId} onHoverChange={onHover} onSelect={onSelect} />
      <DrawnPointsAnnouncer points={points} />
      <FollowSelection points={points} selectedId={selectedId} />
      {/* Bottom left, above the scale: the top-left corner is BaseMap's (basemap switcher, fallback line). */}
      <MapLegend counts={counts} className="absolute bottom-9 start-2 hidden w-48 sm:block" />
    </BaseMap>
  );
}

/**
 * Once MapLibre has drawn a new set of points (the map is idle after the data changed), says so
 * in a polite live region and as a User Timing mark — the moment the benchmark measures.
 */
function DrawnPointsAnnouncer({ points }: { points: SubmissionPoints | null }) {
  const t = useTranslations("missions.detail");
  const map = useMap().current?.getMap();
  const [drawn, setDrawn] = useState<number | null>(null);
  useEffect(() => {
    if (!map || !points) return;
    let cancelled = false;
    map.once("idle", () => {
      if (cancelled) return;
      performance.mark(POINTS_DRAWN_MARK, { detail: { count: points.features.length } });
      setDrawn(points.features.length);
    });
    return () => {
      cancelled = true;
    };
  }, [map, points]);
  return (
    <p className="sr-only" aria-live="polite" data-testid="map-points" data-count={drawn ?? ""}>
      {drawn === null ? t("mapLoading") : t("onMap", { count: drawn })}
    </p>
  );
}

/** Room the submission panel takes over the map's right side on screens ≥ sm (26rem + margins). */
const PANEL_WIDTH_PX = 440;

/**
 * A newly selected submission stays in sight: when it is out of view, or hidden behind the
 * details panel, the map eases it into the uncovered part, keeping the zoom.
 */
function FollowSelection({ points, selectedId }: { points: SubmissionPoints | null; selectedId: string | null }) {
  const map = useMap().current?.getMap();
  useEffect(() => {
    if (!map || !selectedId || !points) return;
    const feature = points.features.find((f) => f.properties.id === selectedId);
    if (!feature) return;
    const [lng, lat] = feature.geometry.coordinates;
    const { width } = map.getContainer().getBoundingClientRect();
    const panel = window.matchMedia("(min-width: 640px)").matches && width > PANEL_WIDTH_PX * 1.6 ? PANEL_WIDTH_PX : 0;
    // The panel sits at the inline end: the right, or the left in a right-to-left page.
    const rtl = getComputedStyle(map.getContainer()).direction === "rtl";
    const { x } = map.project([lng, lat]);
    const hidden = !map.getBounds().contains([lng, lat]) || (rtl ? x < panel : x > width - panel);
    if (hidden) map.easeTo({ center: [lng, lat], padding: { top: 0, bottom: 0, left: rtl ? panel : 0, right: rtl ? 0 : panel }, duration: 400 });
    // Only when the selection changes, not on every refresh of the points.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, selectedId]);
  return null;
}
