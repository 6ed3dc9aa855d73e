/**
 * Coordinate precision for drawn and imported mission bounds: 6 decimals of a degree is about
 * 0.1 m, far below what a map click or a phone's GPS can resolve, and keeps payloads small.
 * terra-draw rounds to the same precision (its adapter's coordinatePrecision), so a polygon that
 * went through the drawing tools compares equal to one rounded here.
 */
import type { PolygonGeometry, Position } from "./polygon";

export const COORDINATE_DECIMALS = 6;

/** Rounds half away from zero like terra-draw's limitPrecision (Math.round on the scaled value). */
export function roundCoordinate(value: number, decimals = COORDINATE_DECIMALS): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** A copy of the polygon with every longitude and latitude rounded; altitudes are dropped. */
export function roundPolygonCoordinates(polygon: PolygonGeometry, decimals = COORDINATE_DECIMALS): PolygonGeometry {
  return {
    type: "Polygon",
    coordinates: polygon.coordinates.map((ring) =>
      ring.map((position): Position => [roundCoordinate(position[0], decimals), roundCoordinate(position[1], decimals)]),
    ),
  };
}

/** Same rings, same positions in the same order (longitude and latitude only). */
export function samePolygon(a: PolygonGeometry | null, b: PolygonGeometry | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.coordinates.length !== b.coordinates.length) return false;
  return a.coordinates.every((ring, r) => {
    const other = b.coordinates[r];
    return other !== undefined && ring.length === other.length && ring.every((position, p) => position[0] === other[p]?.[0] && position[1] === other[p]?.[1]);
  });
}
