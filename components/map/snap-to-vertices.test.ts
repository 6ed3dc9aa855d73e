import { describe, expect, it } from "vitest";

import type { PolygonGeometry } from "@/lib/geo/polygon";

import { nearestVertexWithin, polygonVertices, SNAP_DISTANCE_PX } from "./snap-to-vertices";

// A plain linear projection: 1° = 1000 px, y growing downwards as on a screen.
const project = (lng: number, lat: number) => ({ x: lng * 1000, y: -lat * 1000 });

const square = (lng: number, lat: number, size = 0.1): PolygonGeometry => ({
  type: "Polygon",
  coordinates: [
    [
      [lng, lat],
      [lng + size, lat],
      [lng + size, lat + size],
      [lng, lat + size],
      [lng, lat],
    ],
  ],
});

describe("polygonVertices", () => {
  it("lists each vertex once, without the closing repeat, across polygons and holes", () => {
    const withHole: PolygonGeometry = { type: "Polygon", coordinates: [...square(0, 0, 1).coordinates, ...square(0.25, 0.25, 0.5).coordinates] };
    const vertices = polygonVertices([withHole, square(1, 0, 1)]);
    // 4 outer + 4 hole + 4 of the neighbour, of which [1, 0] and [1, 1] are shared.
    expect(vertices).toHaveLength(10);
    expect(vertices).toContainEqual([0.25, 0.75]);
    expect(new Set(vertices.map(String)).size).toBe(vertices.length);
  });
});

describe("nearestVertexWithin", () => {
  const vertices = polygonVertices([
    {
      type: "Polygon",
      coordinates: [
        [
          [11.25, 43.76],
          [11.26, 43.76],
          [11.26, 43.77],
          [11.25, 43.77],
          [11.25, 43.76],
        ],
      ],
    },
  ]);

  it("returns the exact stored vertex when the pointer is within the distance", () => {
    const pointer = { x: 11.26 * 1000 + 5, y: -43.77 * 1000 - 6 };
    expect(nearestVertexWithin(pointer, vertices, project)).toEqual([11.26, 43.77]);
  });

  it("picks the nearest of several candidates", () => {
    const close = polygonVertices([square(0, 0, 0.01)]);
    // 4 px from [0.01, 0] and 6 px from [0, 0] (the vertices are 10 px apart).
    expect(nearestVertexWithin({ x: 6, y: 0 }, close, project)).toEqual([0.01, 0]);
  });

  it("returns nothing beyond the distance", () => {
    const pointer = { x: 11.26 * 1000 + SNAP_DISTANCE_PX + 1, y: -43.77 * 1000 };
    expect(nearestVertexWithin(pointer, vertices, project)).toBeUndefined();
    expect(nearestVertexWithin({ x: 0, y: 0 }, [], project)).toBeUndefined();
  });
});
