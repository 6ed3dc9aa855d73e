/**
 * Source ids, layer ids and paint specs of the order layers: the wizard's draft locations, an
 * order's locations by state, and a delivered photo's camera against its target. The state
 * colours start from the submission palette of layer-styles.ts (delivered = approved, verifying =
 * processing, given up = rejected, assigned = received) with grey for waiting, violet for
 * retake and pink for a photo waiting for the account manager's review; each is at least 3:1 against white (tested). Six hues cannot all stay apart for every
 * colour vision, so colour is never the only cue: the map's labels, the legend and the list beside
 * the map name each location's state.
 */
import type { ExpressionSpecification } from "@maplibre/maplibre-gl-style-spec";
import type { CircleLayerSpecification, LineLayerSpecification, SymbolLayerSpecification } from "react-map-gl/maplibre";
import { MAP_FONT_BOLD, MAP_FONT_REGULAR } from "@/lib/map/basemap-style";
import { STATUS_COLOURS } from "./layer-styles";

type LayerStyle<T> = Omit<T, "source">;

/** LOCATION_STATES of components/orders/order-progress (the map layers do not import feature code). */
export type OrderLocationState = "waiting" | "assigned" | "verifying" | "held" | "retake" | "delivered" | "given_up";

const INK = "#1e293b";
const selected: ExpressionSpecification = ["boolean", ["feature-state", "selected"], false];
const hovered: ExpressionSpecification = ["boolean", ["feature-state", "hover"], false];

export const ORDER_LOCATION_STATE_COLOURS = {
  waiting: "#64748b",
  assigned: STATUS_COLOURS.received,
  verifying: STATUS_COLOURS.processing,
  held: "#be185d",
  retake: "#7e22ce",
  delivered: STATUS_COLOURS.approved,
  given_up: STATUS_COLOURS.rejected,
} as const satisfies Record<OrderLocationState, string>;

// ---------------------------------------------------------------------------
// Draft locations (the order wizard)
// ---------------------------------------------------------------------------

export const DRAFT_LOCATIONS_SOURCE_ID = "draft-locations";
export const DRAFT_LOCATION_LAYER_IDS = { points: "draft-locations-points", labels: "draft-locations-labels" } as const;

export const draftLocationPointsLayer: LayerStyle<CircleLayerSpecification> = {
  id: DRAFT_LOCATION_LAYER_IDS.points,
  type: "circle",
  paint: {
    "circle-color": ["case", ["boolean", ["get", "invalid"], false], STATUS_COLOURS.rejected, "#047857"],
    "circle-radius": ["case", selected, 10, hovered, 9, 7.5],
    "circle-stroke-color": ["case", ["any", selected, hovered], INK, "#ffffff"],
    "circle-stroke-width": ["case", selected, 3, 2],
  },
};

export const draftLocationLabelsLayer: LayerStyle<SymbolLayerSpecification> = {
  id: DRAFT_LOCATION_LAYER_IDS.labels,
  type: "symbol",
  layout: {
    "text-field": ["get", "label"],
    "text-font": MAP_FONT_BOLD,
    "text-size": 12,
    "text-offset": [0, 1.1],
    "text-anchor": "top",
    "text-optional": true,
  },
  paint: { "text-color": INK, "text-halo-color": "#ffffff", "text-halo-width": 1.6 },
};

// ---------------------------------------------------------------------------
// An order's locations by state (the order page)
// ---------------------------------------------------------------------------

export const ORDER_LOCATIONS_SOURCE_ID = "order-locations";
export const ORDER_LOCATION_LAYER_IDS = { points: "order-locations-points", labels: "order-locations-labels" } as const;

const stateColour: ExpressionSpecification = [
  "match",
  ["get", "state"],
  "assigned",
  ORDER_LOCATION_STATE_COLOURS.assigned,
  "verifying",
  ORDER_LOCATION_STATE_COLOURS.verifying,
  "retake",
  ORDER_LOCATION_STATE_COLOURS.retake,
  "delivered",
  ORDER_LOCATION_STATE_COLOURS.delivered,
  "given_up",
  ORDER_LOCATION_STATE_COLOURS.given_up,
  ORDER_LOCATION_STATE_COLOURS.waiting,
];

export const orderLocationPointsLayer: LayerStyle<CircleLayerSpecification> = {
  id: ORDER_LOCATION_LAYER_IDS.points,
  type: "circle",
  paint: {
    "circle-color": stateColour,
    "circle-radius": ["case", selected, 10, hovered, 9, 7.5],
    "circle-stroke-color": ["case", ["any", selected, hovered], INK, "#ffffff"],
    "circle-stroke-width": ["case", selected, 3, 2],
  },
};

export const orderLocationLabelsLayer: LayerStyle<SymbolLayerSpecification> = {
  id: ORDER_LOCATION_LAYER_IDS.labels,
  type: "symbol",
  layout: {
    // The name, and the state in words beneath it: colour is not the only cue.
    "text-field": ["format", ["get", "name"], {}, "\n", {}, ["get", "stateLabel"], { "font-scale": 0.85, "text-font": ["literal", MAP_FONT_BOLD] }],
    "text-font": MAP_FONT_REGULAR,
    "text-justify": "left",
    "text-size": 12,
    // To the right of the point: below it is where a photo's camera usually stands.
    "text-offset": [1.1, 0],
    "text-anchor": "left",
    "text-optional": true,
  },
  paint: { "text-color": INK, "text-halo-color": "#ffffff", "text-halo-width": 1.6 },
};

// ---------------------------------------------------------------------------
// A delivered photo's camera against its target
// ---------------------------------------------------------------------------

export const CAMERA_SOURCE_ID = "photo-camera";
export const CAMERA_LAYER_IDS = {
  offset: "photo-camera-offset",
  direction: "photo-camera-direction",
  target: "photo-camera-target",
  camera: "photo-camera-point",
  deviceOffset: "photo-device-offset",
  device: "photo-device-point",
} as const;
export const CAMERA_COLOUR = "#0b3d91";
/** The phone's own position: amber, apart from the camera's blue and the target's red. */
export const DEVICE_COLOUR = "#b45309";
export const TARGET_COLOUR = "#8b0a1a";

const role = (value: string): ExpressionSpecification => ["==", ["get", "role"], value];

export const cameraOffsetLayer: LayerStyle<LineLayerSpecification> = {
  id: CAMERA_LAYER_IDS.offset,
  type: "line",
  filter: role("offset"),
  paint: { "line-color": INK, "line-width": 1.5, "line-dasharray": [2, 2], "line-opacity": 0.7 },
};

export const cameraDirectionLayer: LayerStyle<LineLayerSpecification> = {
  id: CAMERA_LAYER_IDS.direction,
  type: "line",
  filter: role("direction"),
  layout: { "line-cap": "round" },
  paint: { "line-color": CAMERA_COLOUR, "line-width": 4 },
};

export const cameraTargetLayer: LayerStyle<CircleLayerSpecification> = {
  id: CAMERA_LAYER_IDS.target,
  type: "circle",
  filter: role("target"),
  paint: { "circle-color": "#ffffff", "circle-radius": 9, "circle-stroke-color": TARGET_COLOUR, "circle-stroke-width": 4 },
};

export const cameraPointLayer: LayerStyle<CircleLayerSpecification> = {
  id: CAMERA_LAYER_IDS.camera,
  type: "circle",
  filter: role("camera"),
  paint: { "circle-color": CAMERA_COLOUR, "circle-radius": 7, "circle-stroke-color": "#ffffff", "circle-stroke-width": 2 },
};

export const deviceOffsetLayer: LayerStyle<LineLayerSpecification> = {
  id: CAMERA_LAYER_IDS.deviceOffset,
  type: "line",
  filter: role("device_offset"),
  paint: { "line-color": DEVICE_COLOUR, "line-width": 2, "line-dasharray": [1, 1.5] },
};

export const devicePointLayer: LayerStyle<CircleLayerSpecification> = {
  id: CAMERA_LAYER_IDS.device,
  type: "circle",
  filter: role("device"),
  paint: { "circle-color": DEVICE_COLOUR, "circle-radius": 7, "circle-stroke-color": "#ffffff", "circle-stroke-width": 2 },
};
