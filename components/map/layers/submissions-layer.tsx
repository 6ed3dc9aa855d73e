"use client";

/**
 * A mission's submissions as one clustered GeoJSON source: clusters sized by count with the
 * count written on them, single submissions coloured by status, and hover and selection drawn
 * through feature-state (no DOM markers, so thousands of points stay cheap).
 *
 * The layer listens to its own layers' mouse events: hovering a point reports its id through
 * onHoverChange, clicking it through onSelect, clicking empty map selects nothing, and clicking
 * a cluster zooms in until it comes apart. The parent owns `hoveredId` and `selectedId` (so a
 * list beside the map can drive them too).
 */
import type { GeoJSONSource, MapGeoJSONFeature, Map as MaplibreMap, MapMouseEvent } from "maplibre-gl";
import { useEffect, useMemo, useRef } from "react";
import { Layer, Source, useMap } from "react-map-gl/maplibre";

import {
  FEATURE_STATE,
  SUBMISSION_CLUSTER_OPTIONS,
  SUBMISSION_LAYER_IDS,
  SUBMISSION_LAYERS,
  SUBMISSIONS_SOURCE_ID,
  type SubmissionStatus,
} from "./layer-styles";

export interface SubmissionPointProperties {
  /** Submission id; promoted to the feature id for feature-state. */
  id: string;
  status: SubmissionStatus;
  /** ISO 8601. */
  received_at: string;
}

/** Submissions without a location have no place here: leave them out of `features`. */
export interface SubmissionPointCollection {
  type: "FeatureCollection";
  features: {
    type: "Feature";
    geometry: { type: "Point"; coordinates: number[] };
    properties: SubmissionPointProperties;
  }[];
}

export interface SubmissionsLayerProps {
  /** A URL answering with a SubmissionPointCollection, or the collection itself. */
  data: string | SubmissionPointCollection;
  selectedId: string | null;
  hoveredId: string | null;
  onHoverChange: (id: string | null) => void;
  onSelect: (id: string | null) => void;
  /** Layer id to insert these layers below, if any. */
  beforeId?: string;
}

interface FeaturesEvent {
  features?: MapGeoJSONFeature[];
}

/** The submission id under the pointer in a map mouse event (with the points layer interactive), or null. */
export function submissionIdFromEvent(event: FeaturesEvent): string | null {
  const feature = event.features?.find((candidate) => candidate.layer.id === SUBMISSION_LAYER_IDS.points);
  const id: unknown = feature?.properties.id;
  return typeof id === "string" ? id : null;
}

/** Zooms to where a cluster splits (MapLibre 6 answers the expansion zoom with a promise). */
export async function zoomToCluster(map: MaplibreMap, cluster: MapGeoJSONFeature): Promise<void> {
  const source = map.getSource<GeoJSONSource>(SUBMISSIONS_SOURCE_ID);
  const clusterId: unknown = cluster.properties.cluster_id;
  if (!source || typeof clusterId !== "number" || cluster.geometry.type !== "Point") return;
  const zoom = await source.getClusterExpansionZoom(clusterId);
  const [lng = 0, lat = 0] = cluster.geometry.coordinates;
  map.easeTo({ center: [lng, lat], zoom: Math.max(zoom, map.getZoom() + 1) });
}

/** Sets a feature-state flag on one submission for as long as the effect lives. */
function useFeatureFlag(map: MaplibreMap | undefined, id: string | null, key: string): void {
  useEffect(() => {
    if (!map || id === null || !map.getSource(SUBMISSIONS_SOURCE_ID)) return;
    const target = { source: SUBMISSIONS_SOURCE_ID, id };
    map.setFeatureState(target, { [key]: true });
    return () => {
      if (map.getSource(SUBMISSIONS_SOURCE_ID)) map.setFeatureState(target, { [key]: false });
    };
  }, [map, id, key]);
}

export function SubmissionsLayer({ data, selectedId, hoveredId, onHoverChange, onSelect, beforeId }: SubmissionsLayerProps) {
  const map = useMap().current?.getMap();
  const callbacks = useRef({ onHoverChange, onSelect });
  useEffect(() => {
    callbacks.current = { onHoverChange, onSelect };
  }, [onHoverChange, onSelect]);

  // MapLibre fetches GeoJSON in its worker, which cannot resolve a path against the page.
  const source = useMemo(() => (typeof data === "string" && typeof window !== "undefined" ? new URL(data, window.location.href).href : data), [data]);

  useFeatureFlag(map, hoveredId, FEATURE_STATE.hover);
  useFeatureFlag(map, selectedId, FEATURE_STATE.selected);

  useEffect(() => {
    if (!map) return;
    const interactive = [SUBMISSION_LAYER_IDS.points, SUBMISSION_LAYER_IDS.clusters];
    const canvas = map.getCanvas();
    const pointer = () => {
      canvas.style.cursor = "pointer";
    };
    const grab = () => {
      canvas.style.removeProperty("cursor");
    };
    const hover = (event: MapMouseEvent & FeaturesEvent) => callbacks.current.onHoverChange(submissionIdFromEvent(event));
    const leave = () => callbacks.current.onHoverChange(null);
    const click = (event: MapMouseEvent) => {
      const features = map.queryRenderedFeatures(event.point, { layers: interactive });
      const cluster = features.find((feature) => feature.layer.id === SUBMISSION_LAYER_IDS.clusters);
      if (cluster) {
        void zoomToCluster(map, cluster);
        return;
      }
      callbacks.current.onSelect(submissionIdFromEvent({ features }));
    };
    for (const layer of interactive) {
      map.on("mouseenter", layer, pointer);
      map.on("mouseleave", layer, grab);
    }
    map.on("mousemove", SUBMISSION_LAYER_IDS.points, hover);
    map.on("mouseleave", SUBMISSION_LAYER_IDS.points, leave);
    map.on("click", click);
    return () => {
      for (const layer of interactive) {
        map.off("mouseenter", layer, pointer);
        map.off("mouseleave", layer, grab);
      }
      map.off("mousemove", SUBMISSION_LAYER_IDS.points, hover);
      map.off("mouseleave", SUBMISSION_LAYER_IDS.points, leave);
      map.off("click", click);
    };
  }, [map]);

  return (
    <Source id={SUBMISSIONS_SOURCE_ID} type="geojson" data={source} promoteId="id" {...SUBMISSION_CLUSTER_OPTIONS}>
      {SUBMISSION_LAYERS.map((layer) => (
        <Layer key={layer.id} {...layer} beforeId={beforeId} />
      ))}
    </Source>
  );
}
