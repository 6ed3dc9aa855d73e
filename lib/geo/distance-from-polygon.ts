/**
 * How far a photo was taken from its mission, as a person reads it: 0 anywhere inside the
 * polygon, else metres to its nearest edge (a point in a hole is outside, measured to the hole's
 * edge). Used by the dashboard's submission list; the QA check keeps its own signed distance.
 */
import { point, pointToPolygonDistance, polygon as turfPolygon } from "@turf/turf";

import type { PolygonGeometry } from "./polygon";

export function distanceFromPolygonM(polygon: PolygonGeometry, lng: number, lat: number): number {
  const signedKm = pointToPolygonDistance(point([lng, lat]), turfPolygon(polygon.coordinates), { units: "kilometers" });
  return Math.max(0, signedKm * 1000);
}

/** "inside", "40 m", "1.2 km", "35 km": rounded so the figure is not more precise than GPS. */
export function formatDistanceFromMission(metres: number): string {
  if (metres <= 0) return "inside";
  if (metres < 1000) return `${Math.max(1, Math.round(metres))} m away`;
  if (metres < 10_000) return `${(metres / 1000).toFixed(1)} km away`;
  return `${Math.round(metres / 1000).toLocaleString("en-GB")} km away`;
}
