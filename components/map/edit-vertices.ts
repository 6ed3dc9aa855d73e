/**
 * Vertex edits of a draft polygon's outer ring, as pure functions for the keyboard vertex editor:
 * move one vertex, delete one, insert one halfway to the next. Indices count the ring's distinct
 * vertices (0 … n-1); the closing position follows the first vertex. Results are rounded like
 * everything else the drawing tools produce.
 */
import { roundPolygonCoordinates } from "@/lib/geo/coordinate-precision";
import type { PolygonGeometry, Position } from "@/lib/geo/polygon";

/** A polygon keeps at least this many distinct vertices. */
export const MIN_VERTICES = 3;

/** The outer ring's distinct vertices (without the closing repeat). */
export function ringVertices(polygon: PolygonGeometry): Position[] {
  return (polygon.coordinates[0] ?? []).slice(0, -1);
}

/** The index `step` vertices further along the ring, wrapping around. */
export function stepVertex(count: number, index: number, step: number): number {
  if (count <= 0) return 0;
  return (((index + step) % count) + count) % count;
}

function withOuterRing(polygon: PolygonGeometry, vertices: Position[]): PolygonGeometry {
  const first = vertices[0];
  const ring = first ? [...vertices, first] : [];
  return roundPolygonCoordinates({ type: "Polygon", coordinates: [ring, ...polygon.coordinates.slice(1)] });
}

export function moveVertex(polygon: PolygonGeometry, index: number, to: [number, number]): PolygonGeometry {
  const vertices = ringVertices(polygon);
  if (index < 0 || index >= vertices.length) return polygon;
  return withOuterRing(
    polygon,
    vertices.map((vertex, i) => (i === index ? to : vertex)),
  );
}

/** null when the polygon would have fewer than MIN_VERTICES left. */
export function deleteVertex(polygon: PolygonGeometry, index: number): PolygonGeometry | null {
  const vertices = ringVertices(polygon);
  if (index < 0 || index >= vertices.length || vertices.length <= MIN_VERTICES) return null;
  return withOuterRing(
    polygon,
    vertices.filter((_, i) => i !== index),
  );
}

/** Inserts a vertex halfway along the edge from `index` to the next vertex; it gets index + 1. */
export function insertVertexAfter(polygon: PolygonGeometry, index: number): PolygonGeometry {
  const vertices = ringVertices(polygon);
  const from = vertices[index];
  const to = vertices[stepVertex(vertices.length, index, 1)];
  if (!from || !to) return polygon;
  const middle: Position = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
  return withOuterRing(polygon, [...vertices.slice(0, index + 1), middle, ...vertices.slice(index + 1)]);
}
