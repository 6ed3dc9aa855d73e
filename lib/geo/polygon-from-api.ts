import type { PolygonGeometry } from "./polygon";

/**
 * The API's Polygon (positions typed as number[] by the OpenAPI schema) as the geometry helpers'
 * tuple type. The API only returns validated 2D positions; anything shorter would be a bug there.
 */
export function polygonFromApi(polygon: { type: "Polygon"; coordinates: number[][][] }): PolygonGeometry {
  return {
    type: "Polygon",
    coordinates: polygon.coordinates.map((ring) =>
      ring.map((position) => {
        const [lng, lat] = position;
        if (lng === undefined || lat === undefined) throw new Error("a position without longitude and latitude");
        return [lng, lat];
      }),
    ),
  };
}
