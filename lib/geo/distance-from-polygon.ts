/**
 * How far a photo was taken from its mission, as a person reads it: 0 anywhere inside the
 * polygon, else metres to its nearest edge (a point in a hole is outside, measured to the hole's
 * edge). Used by the dashboard's submission list; the signed distance is the QA's inside_bounds
 * rule on the server and on the phone before sending (lib/verification/image-quality.ts).
 */
import { point, pointToPolygonDistance, polygon as turfPolygon } from "@turf/turf";

import type { PolygonGeometry } from "./polygon";

/** Signed distance from the polygon's edge in metres: ≤ 0 inside. */
export function signedDistanceFromPolygonM(polygon: PolygonGeometry, lng: number, lat: number): number {
  return pointToPolygonDistance(point([lng, lat]), turfPolygon(polygon.coordinates), { units: "kilometers" }) * 1000;
}

export function distanceFromPolygonM(polygon: PolygonGeometry, lng: number, lat: number): number {
  return Math.max(0, signedDistanceFromPolygonM(polygon, lng, lat));
}
