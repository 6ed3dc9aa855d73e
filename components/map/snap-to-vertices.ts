/**
 * Snapping a drawn or dragged vertex to the vertices of the organisation's other missions, so
 * neighbouring areas share corners exactly instead of leaving slivers or overlaps. Pure: the map's
 * projection comes in as a function, so the choice can be tested without a map.
 */
import type { PolygonGeometry } from "@/lib/geo/polygon";

export type LngLat = [number, number];

/** Screen distance within which a vertex snaps; smaller than the close/grab distance of the draw control. */
export const SNAP_DISTANCE_PX = 14;

export interface ScreenPoint {
  x: number;
  y: number;
}

/** Every distinct vertex of the polygons (outer rings and holes, without the closing repeats). */
export function polygonVertices(polygons: PolygonGeometry[]): LngLat[] {
  const seen = new Set<string>();
  const out: LngLat[] = [];
  for (const polygon of polygons) {
    for (const ring of polygon.coordinates) {
      for (const position of ring.slice(0, -1)) {
        const vertex: LngLat = [position[0], position[1]];
        const key = `${vertex[0]},${vertex[1]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(vertex);
      }
    }
  }
  return out;
}

/**
 * The vertex nearest the pointer on screen, if it is within `maxPx`; exactly the stored vertex
 * (never a re-projected approximation), so the new polygon shares it bit for bit.
 */
export function nearestVertexWithin(
  pointer: ScreenPoint,
  vertices: readonly LngLat[],
  project: (lng: number, lat: number) => ScreenPoint,
  maxPx = SNAP_DISTANCE_PX,
): LngLat | undefined {
  let best: LngLat | undefined;
  let bestDistance = maxPx;
  for (const vertex of vertices) {
    const point = project(vertex[0], vertex[1]);
    const distance = Math.hypot(point.x - pointer.x, point.y - pointer.y);
    if (distance <= bestDistance) {
      best = vertex;
      bestDistance = distance;
    }
  }
  return best;
}
