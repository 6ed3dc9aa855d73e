import { describe, expect, it } from "vitest";

import type { PolygonGeometry } from "@/lib/geo/polygon";

import { deleteVertex, insertVertexAfter, moveVertex, ringVertices, stepVertex } from "./edit-vertices";

const square: PolygonGeometry = {
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
};

describe("stepVertex", () => {
  it("wraps around the ring both ways", () => {
    expect(stepVertex(4, 3, 1)).toBe(0);
    expect(stepVertex(4, 0, -1)).toBe(3);
    expect(stepVertex(4, 1, 1)).toBe(2);
    expect(stepVertex(0, 0, 1)).toBe(0);
  });
});

describe("moveVertex", () => {
  it("moves one vertex, rounded to 6 decimals", () => {
    const moved = moveVertex(square, 2, [11.2612345678, 43.7712345678]);
    expect(ringVertices(moved)[2]).toEqual([11.261235, 43.771235]);
    expect(ringVertices(moved)[1]).toEqual([11.26, 43.76]);
  });

  it("keeps the ring closed when the first vertex moves", () => {
    const ring = moveVertex(square, 0, [11.249, 43.759]).coordinates[0] ?? [];
    expect(ring[0]).toEqual([11.249, 43.759]);
    expect(ring[ring.length - 1]).toEqual([11.249, 43.759]);
    expect(ring).toHaveLength(5);
  });

  it("leaves the polygon alone for an index outside the ring", () => {
    expect(moveVertex(square, 4, [0, 0])).toBe(square);
  });
});

describe("deleteVertex", () => {
  it("removes a vertex and keeps the ring closed", () => {
    const triangle = deleteVertex(square, 0);
    expect(triangle?.coordinates[0]).toEqual([
      [11.26, 43.76],
      [11.26, 43.77],
      [11.25, 43.77],
      [11.26, 43.76],
    ]);
  });

  it("refuses to go below three vertices", () => {
    const triangle = deleteVertex(square, 1);
    expect(triangle).not.toBeNull();
    expect(deleteVertex(triangle ?? square, 0)).toBeNull();
  });
});

describe("insertVertexAfter", () => {
  it("puts a vertex halfway to the next one, after the given index", () => {
    const inserted = insertVertexAfter(square, 1);
    expect(ringVertices(inserted)).toHaveLength(5);
    expect(ringVertices(inserted)[2]).toEqual([11.26, 43.765]);
  });

  it("inserts on the closing edge after the last vertex", () => {
    const inserted = insertVertexAfter(square, 3);
    expect(ringVertices(inserted)[4]).toEqual([11.25, 43.765]);
    const ring = inserted.coordinates[0] ?? [];
    expect(ring[ring.length - 1]).toEqual([11.25, 43.76]);
  });

  it("keeps holes as they are", () => {
    const hole = [
      [11.254, 43.764],
      [11.256, 43.764],
      [11.256, 43.766],
      [11.254, 43.764],
    ] as PolygonGeometry["coordinates"][number];
    const withHole: PolygonGeometry = { type: "Polygon", coordinates: [square.coordinates[0] ?? [], hole] };
    expect(insertVertexAfter(withHole, 0).coordinates[1]).toEqual(hole);
  });
});
