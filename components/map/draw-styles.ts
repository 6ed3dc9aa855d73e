/**
 * How terra-draw paints the draft polygon: the app's accent (emerald-700) for the shape, white
 * handles with an accent ring for vertices, smaller grey-ringed handles for midpoints, so the
 * draft stands out from mission bounds (slate) and submission points (status colours).
 */
import type { HexColor } from "terra-draw";

const ACCENT: HexColor = "#047857";
const ACCENT_LIGHT: HexColor = "#10b981";
const WHITE: HexColor = "#ffffff";
const SLATE: HexColor = "#475569";

export const polygonModeStyles = {
  fillColor: ACCENT_LIGHT,
  fillOpacity: 0.18,
  outlineColor: ACCENT,
  outlineWidth: 2.5,
  closingPointColor: WHITE,
  closingPointWidth: 6,
  closingPointOutlineColor: ACCENT,
  closingPointOutlineWidth: 2.5,
} as const;

export const rectangleModeStyles = {
  fillColor: ACCENT_LIGHT,
  fillOpacity: 0.18,
  outlineColor: ACCENT,
  outlineWidth: 2.5,
} as const;

export const selectModeStyles = {
  selectedPolygonColor: ACCENT_LIGHT,
  selectedPolygonFillOpacity: 0.22,
  selectedPolygonOutlineColor: ACCENT,
  selectedPolygonOutlineWidth: 3,
  selectionPointColor: WHITE,
  selectionPointWidth: 6,
  selectionPointOutlineColor: ACCENT,
  selectionPointOutlineWidth: 2.5,
  midPointColor: WHITE,
  midPointWidth: 4,
  midPointOutlineColor: SLATE,
  midPointOutlineWidth: 1.5,
} as const;

/** Polygons terra-draw cannot edit (with holes): shown, not editable. */
export const lockedModeStyles = {
  polygonFillColor: ACCENT_LIGHT,
  polygonFillOpacity: 0.18,
  polygonOutlineColor: ACCENT,
  polygonOutlineWidth: 2.5,
} as const;
