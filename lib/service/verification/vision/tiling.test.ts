import { describe, expect, it } from "vitest";
import { containment, cutByTile, gridFor, iou, mergePasses, tilePixels, tilesFor, toFrame, WHOLE_FRAME, type Box, type BoxedObject, type Tile } from "./tiling";

const person = (box: Box, score = 0.6): BoxedObject => ({ label: "person", score, box });

describe("tile grid", () => {
  it("cuts the short side in 2 and the long side into about square tiles, within the pass budget", () => {
    expect(gridFor(1600, 1600, 7)).toEqual({ cols: 2, rows: 2 });
    expect(gridFor(1600, 1200, 7)).toEqual({ cols: 3, rows: 2 });
    expect(gridFor(1200, 1600, 7)).toEqual({ cols: 2, rows: 3 });
    expect(gridFor(1920, 1080, 9)).toEqual({ cols: 4, rows: 2 });
    // A 16:9 frame wants 4 × 2, the budget of 7 passes allows 3 × 2.
    expect(gridFor(1920, 1080, 7)).toEqual({ cols: 3, rows: 2 });
    expect(gridFor(1600, 1200, 5)).toEqual({ cols: 2, rows: 2 });
  });

  it("does not tile below 5 passes: the whole frame alone", () => {
    expect(gridFor(1600, 1200, 4)).toEqual({ cols: 0, rows: 0 });
    expect(tilesFor(1600, 1200, { passes: 1 })).toEqual([WHOLE_FRAME]);
    expect(tilesFor(1600, 1200, { passes: 4 })).toEqual([WHOLE_FRAME]);
  });

  it("covers the frame at 2× with neighbours overlapping by a fifth of a tile", () => {
    const tiles = tilesFor(1600, 1200, { passes: 7 });
    expect(tiles).toHaveLength(7);
    expect(tiles[0]).toEqual(WHOLE_FRAME);
    const grid = tiles.slice(1);
    // 2 rows: each 1 / (2 − 0.2) of the height; 3 columns: 1 / (3 − 0.4) of the width.
    for (const t of grid) {
      expect(t.h).toBeCloseTo(1 / 1.8, 5);
      expect(t.w).toBeCloseTo(1 / 2.6, 5);
    }
    const first = grid[0] as Tile;
    const second = grid[1] as Tile;
    expect(first.x + first.w - second.x).toBeCloseTo(0.2 * first.w, 5);
    // The last tile of each row and column ends at the frame's edge; every point is in some tile.
    expect(Math.max(...grid.map((t) => t.x + t.w))).toBeCloseTo(1, 5);
    expect(Math.max(...grid.map((t) => t.y + t.h))).toBeCloseTo(1, 5);
    for (let x = 0.005; x < 1; x += 0.02) {
      for (let y = 0.005; y < 1; y += 0.02) {
        expect(grid.some((t) => x >= t.x && x <= t.x + t.w && y >= t.y && y <= t.y + t.h)).toBe(true);
      }
    }
  });

  it("gives each tile in whole pixels inside the frame", () => {
    for (const tile of tilesFor(1001, 667, { passes: 7 })) {
      const px = tilePixels(tile, 1001, 667);
      expect(px.left + px.width).toBeLessThanOrEqual(1001);
      expect(px.top + px.height).toBeLessThanOrEqual(667);
      expect(px.width).toBeGreaterThan(350);
    }
  });
});

describe("boxes from a tile", () => {
  const lowerRight: Tile = { x: 0.5, y: 0.5, w: 0.5, h: 0.5 };

  it("maps a tile's box to the frame", () => {
    expect(toFrame([0.2, 0.4, 0.1, 0.2], lowerRight)).toEqual([0.6, 0.7, 0.05, 0.1]);
    expect(toFrame([0.2, 0.4, 0.1, 0.2], WHOLE_FRAME)).toEqual([0.2, 0.4, 0.1, 0.2]);
  });

  it("takes a box touching an inner edge of its tile as cut, not one touching the frame's edge", () => {
    expect(cutByTile([0, 0.3, 0.2, 0.3], lowerRight)).toBe(true);
    expect(cutByTile([0.3, 0.005, 0.2, 0.3], lowerRight)).toBe(true);
    // The right and bottom edges of this tile are the frame's: a person there is not cut by the tile.
    expect(cutByTile([0.8, 0.5, 0.2, 0.5], lowerRight)).toBe(false);
    expect(cutByTile([0.3, 0.3, 0.2, 0.3], lowerRight)).toBe(false);
    expect(cutByTile([0, 0, 0.2, 0.2], WHOLE_FRAME)).toBe(false);
  });

  it("measures overlap and containment", () => {
    expect(iou([0, 0, 0.2, 0.2], [0, 0, 0.2, 0.2])).toBeCloseTo(1, 6);
    expect(iou([0, 0, 0.2, 0.2], [0.1, 0, 0.2, 0.2])).toBeCloseTo(1 / 3, 6);
    expect(iou([0, 0, 0.1, 0.1], [0.5, 0.5, 0.1, 0.1])).toBe(0);
    expect(containment([0, 0, 0.4, 0.8], [0.1, 0.1, 0.1, 0.2])).toBeCloseTo(1, 6);
  });
});

describe("mergePasses", () => {
  const left: Tile = { x: 0, y: 0, w: 0.6, h: 1 };
  const right: Tile = { x: 0.4, y: 0, w: 0.6, h: 1 };

  it("keeps the whole frame's people and adds the small ones only a tile found", () => {
    const merged = mergePasses([
      { tile: WHOLE_FRAME, found: [person([0.1, 0.2, 0.2, 0.7])] },
      { tile: right, found: [person([0.5, 0.4, 0.05, 0.1], 0.5)] },
    ]);
    expect(merged).toHaveLength(2);
    expect(merged[1]?.box).toEqual([0.7, 0.4, 0.03, 0.1]);
  });

  it("counts once a person seen by the whole frame and again, larger, by a tile", () => {
    const merged = mergePasses([
      { tile: WHOLE_FRAME, found: [person([0.1, 0.2, 0.1, 0.5], 0.8)] },
      // The same person in the left tile: [0.1 / 0.6, …] maps back to about the same box.
      { tile: left, found: [person([0.17, 0.21, 0.16, 0.49], 0.9)] },
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.score).toBe(0.8);
  });

  it("drops a tile's part of a person the whole frame holds (a head and shoulders inside the body's box)", () => {
    const merged = mergePasses([
      { tile: WHOLE_FRAME, found: [person([0.3, 0.1, 0.2, 0.8])] },
      { tile: left, found: [person([0.55, 0.1, 0.2, 0.3], 0.7)] },
    ]);
    // [0.55·0.6, …] = [0.33, 0.1, 0.12, 0.3]: inside the body's box.
    expect(merged).toHaveLength(1);
  });

  it("drops a person cut by a tile's inner edge and keeps the neighbouring tile's whole view of them", () => {
    const merged = mergePasses([
      { tile: WHOLE_FRAME, found: [] },
      // Cut by the left tile's right edge (x + w reaches 1 of the tile) …
      { tile: left, found: [person([0.9, 0.3, 0.1, 0.2], 0.7)] },
      // … and whole in the right tile: [(0.58 − 0.4) / 0.6, …].
      { tile: right, found: [person([0.3, 0.3, 0.1, 0.2], 0.6)] },
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.box[0]).toBeCloseTo(0.58, 4);
  });

  it("counts once a person whole in two overlapping tiles, the better score kept", () => {
    const merged = mergePasses([
      { tile: WHOLE_FRAME, found: [] },
      { tile: left, found: [person([0.75, 0.3, 0.1, 0.2], 0.55)] },
      { tile: right, found: [person([0.09, 0.3, 0.1, 0.2], 0.65)] },
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.score).toBe(0.65);
  });

  it("keeps two people side by side, and a car overlapping a person", () => {
    const merged = mergePasses([
      { tile: WHOLE_FRAME, found: [person([0.1, 0.3, 0.05, 0.2])] },
      { tile: left, found: [person([0.26, 0.3, 0.08, 0.2]), { label: "car", score: 0.7, box: [0.17, 0.3, 0.1, 0.2] }] },
    ]);
    // The tile's person is at x 0.156–0.204 of the frame: beside the first (0.1–0.15), not on it.
    expect(merged.map((d) => d.label).sort()).toEqual(["car", "person", "person"]);
  });
});
