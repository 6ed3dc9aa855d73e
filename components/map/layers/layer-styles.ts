/**
 * Source ids, layer ids and paint specs of the app's data layers, kept apart from the components
 * so pages, tests and benchmarks can refer to the same ids and options.
 *
 * Status colours: fills with at least 3:1 contrast against the offline basemap's land and water
 * (WCAG 1.4.11), chosen so that every pair stays far apart (CIELAB ΔE > 25) for people with
 * protanopia, deuteranopia or tritanopia too; layer-styles.test.ts checks both. Colour is never
 * the only cue: the legend and the submission list name each status.
 */
// maplibre-gl's own style-spec package (installed with it): react-map-gl re-exports the layer
// types but not the expression type.
import type { ExpressionSpecification } from "@maplibre/maplibre-gl-style-spec";
import type { CircleLayerSpecification, FillLayerSpecification, LineLayerSpecification, SymbolLayerSpecification } from "react-map-gl/maplibre";

import { MAP_FONT_BOLD } from "@/lib/map/basemap-style";

export const SUBMISSION_STATUSES = ["received", "processing", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const STATUS_COLOURS: Record<SubmissionStatus, string> = {
  received: "#0b3d91",
  processing: "#a66a00",
  approved: "#00875a",
  rejected: "#8b0a1a",
};

/** Outline and cluster colour: slate-800, dark enough to read on either basemap. */
const INK = "#1e293b";
const CLUSTER_FILL = "#334155";

// ---------------------------------------------------------------------------
// Submissions
// ---------------------------------------------------------------------------

export const SUBMISSIONS_SOURCE_ID = "submissions";

/** Clustering of the submissions source; shared with the map benchmark so both measure the same thing. */
export const SUBMISSION_CLUSTER_OPTIONS = { cluster: true, clusterRadius: 50, clusterMaxZoom: 14 } as const;

export const SUBMISSION_LAYER_IDS = {
  clusters: "submissions-clusters",
  clusterCount: "submissions-cluster-count",
  selectedHalo: "submissions-selected-halo",
  points: "submissions-points",
} as const;

/** Layers whose features respond to the pointer (for `interactiveLayerIds`). */
export const SUBMISSION_INTERACTIVE_LAYER_IDS = [SUBMISSION_LAYER_IDS.clusters, SUBMISSION_LAYER_IDS.points];

/** Feature-state keys set by SubmissionsLayer for its hovered and selected submission. */
export const FEATURE_STATE = { hover: "hover", selected: "selected" } as const;

const isCluster: ExpressionSpecification = ["has", "point_count"];
const isPoint: ExpressionSpecification = ["!", ["has", "point_count"]];
const selected: ExpressionSpecification = ["boolean", ["feature-state", FEATURE_STATE.selected], false];
const hovered: ExpressionSpecification = ["boolean", ["feature-state", FEATURE_STATE.hover], false];

const statusColour: ExpressionSpecification = [
  "match",
  ["get", "status"],
  "received",
  STATUS_COLOURS.received,
  "processing",
  STATUS_COLOURS.processing,
  "approved",
  STATUS_COLOURS.approved,
  "rejected",
  STATUS_COLOURS.rejected,
  // An unknown status (a newer API) stays visible, in neutral grey.
  "#6b7280",
];

type LayerStyle<T> = Omit<T, "source">;

export const submissionClustersLayer: LayerStyle<CircleLayerSpecification> = {
  id: SUBMISSION_LAYER_IDS.clusters,
  type: "circle",
  filter: isCluster,
  paint: {
    "circle-color": CLUSTER_FILL,
    // Sized by how many submissions a cluster holds, in steps so sizes are tellable apart.
    "circle-radius": ["step", ["get", "point_count"], 13, 10, 17, 100, 22, 1000, 27],
    "circle-stroke-color": "#ffffff",
    "circle-stroke-width": 2,
    "circle-opacity": 0.92,
  },
};

export const submissionClusterCountLayer: LayerStyle<SymbolLayerSpecification> = {
  id: SUBMISSION_LAYER_IDS.clusterCount,
  type: "symbol",
  filter: isCluster,
  layout: {
    "text-field": ["get", "point_count_abbreviated"],
    "text-font": MAP_FONT_BOLD,
    "text-size": 12,
    "text-allow-overlap": true,
    "text-ignore-placement": true,
  },
  paint: { "text-color": "#ffffff" },
};

/**
 * The ring around the selected point. Every other point's halo has no size at all, not merely no
 * opacity: a transparent 13 px circle is still drawn, pixel by pixel, for each of thousands of
 * points on every frame — at street zoom in software WebGL a frame took 74 ms with it, 47 ms
 * without (the map-frame benchmark).
 */
export const submissionSelectedHaloLayer: LayerStyle<CircleLayerSpecification> = {
  id: SUBMISSION_LAYER_IDS.selectedHalo,
  type: "circle",
  filter: isPoint,
  paint: {
    "circle-radius": ["case", selected, 13, 0],
    "circle-color": "#ffffff",
    "circle-opacity": 0.9,
    "circle-stroke-color": INK,
    "circle-stroke-width": ["case", selected, 2, 0],
    "circle-stroke-opacity": 1,
  },
};

export const submissionPointsLayer: LayerStyle<CircleLayerSpecification> = {
  id: SUBMISSION_LAYER_IDS.points,
  type: "circle",
  filter: isPoint,
  paint: {
    "circle-color": statusColour,
    "circle-radius": ["interpolate", ["linear"], ["zoom"], 10, ["case", selected, 7, hovered, 6.5, 4.5], 16, ["case", selected, 9, hovered, 8.5, 7]],
    "circle-stroke-color": ["case", ["any", selected, hovered], INK, "#ffffff"],
    "circle-stroke-width": ["case", selected, 2.5, hovered, 2, 1.25],
  },
};

/** The submissions' layers as SubmissionsLayer draws them, bottom to top (the map-frame benchmark draws the same). */
export const SUBMISSION_LAYERS = [submissionClustersLayer, submissionClusterCountLayer, submissionSelectedHaloLayer, submissionPointsLayer] as const;

// ---------------------------------------------------------------------------
// Mission bounds
// ---------------------------------------------------------------------------

export const MISSION_BOUNDS_SOURCE_ID = "mission-bounds";

export const MISSION_BOUNDS_LAYER_IDS = {
  fill: "mission-bounds-fill",
  outline: "mission-bounds-outline",
} as const;

export const missionBoundsFillLayer: LayerStyle<FillLayerSpecification> = {
  id: MISSION_BOUNDS_LAYER_IDS.fill,
  type: "fill",
  paint: { "fill-color": INK, "fill-opacity": 0.06 },
};

export const missionBoundsOutlineLayer: LayerStyle<LineLayerSpecification> = {
  id: MISSION_BOUNDS_LAYER_IDS.outline,
  type: "line",
  layout: { "line-join": "round" },
  paint: { "line-color": INK, "line-width": 2.5, "line-opacity": 0.85 },
};

// ---------------------------------------------------------------------------
// The organisation's other missions, shown while drawing (their vertices are snap targets)
// ---------------------------------------------------------------------------

export const OTHER_MISSIONS_SOURCE_ID = "other-missions";

export const otherMissionsOutlineLayer: LayerStyle<LineLayerSpecification> = {
  id: "other-missions-outline",
  type: "line",
  filter: ["==", ["geometry-type"], "Polygon"],
  paint: { "line-color": "#475569", "line-width": 1.5, "line-dasharray": [3, 2] },
};

export const otherMissionsVertexLayer: LayerStyle<CircleLayerSpecification> = {
  id: "other-missions-vertices",
  type: "circle",
  filter: ["==", ["geometry-type"], "Point"],
  paint: { "circle-radius": 3.5, "circle-color": "#ffffff", "circle-stroke-color": "#475569", "circle-stroke-width": 1.5 },
};
