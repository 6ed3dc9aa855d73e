/**
 * Multi-pass detection for a detector with a small square input: the whole frame, plus
 * overlapping tiles that cover the frame at 2×, each given to the model at its full input size,
 * so people too small for the whole-frame pass (a crowd in a square, the far end of a
 * restaurant) are large enough to be found. Pure functions, no model: the grid, the mapping of a
 * tile's boxes back to the frame, and the merge of all passes.
 *
 * Grid: the short side is cut in 2, the long side in as many tiles as keep them about square
 * (3 for 4:3 and 3:2, 4 for 16:9), at most as many as the pass budget allows; neighbours overlap
 * by TILE_OVERLAP of a tile. Merge: the whole frame's boxes are kept as they are; a tile's box is
 * dropped when it touches an edge of its tile inside the frame (a person cut by the tile, seen
 * whole by the frame or by the neighbouring tile), when it mostly lies inside a box already kept
 * or holds one (the same object seen at two scales), or overlaps one (IoU) — tiles' boxes are
 * taken best score first.
 */

/** [x, y, width, height] as shares (0–1) of the frame, top-left origin. */
export type Box = [number, number, number, number];

export interface BoxedObject {
  label: string;
  score: number;
  box: Box;
}

/** The part of the frame one pass sees, as shares of the frame. */
export interface Tile {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const WHOLE_FRAME: Tile = { x: 0, y: 0, w: 1, h: 1 };
export const isWholeFrame = (t: Tile) => t.x === 0 && t.y === 0 && t.w === 1 && t.h === 1;
/** How much neighbouring tiles share, as a share of a tile's side. */
export const TILE_OVERLAP = 0.2;
/** The fewest passes that tile at all: the frame and a 2×2 grid. */
export const MIN_TILED_PASSES = 5;
/** A box this close to a tile's inner edge (share of the tile's side) is taken as cut by it. */
export const TILE_EDGE_MARGIN = 0.01;
/** Same class, this much overlap (intersection over union): one object. */
export const MERGE_IOU = 0.5;
/** Same class, this much of the smaller box inside the larger one: one object seen at two scales (or a part of it). Measured: 0.5 loses people standing behind others, 0.75 counts parts of people twice. */
export const MERGE_CONTAINMENT = 0.6;

export interface TileGridOptions {
  /** Model passes in all, the whole frame included; fewer than MIN_TILED_PASSES: the whole frame alone. */
  passes: number;
  overlap?: number;
}

/** Columns × rows for a frame of this shape within the pass budget (0 × 0 when it does not tile). */
export function gridFor(width: number, height: number, passes: number): { cols: number; rows: number } {
  const tiles = Math.floor(passes) - 1;
  if (tiles < 4 || width <= 0 || height <= 0) return { cols: 0, rows: 0 };
  const aspect = Math.max(width, height) / Math.min(width, height);
  // 2 tiles across the short side; along the long side, enough for tiles about as long as wide.
  const along = Math.max(2, Math.min(Math.floor(tiles / 2), Math.round(2 * aspect)));
  return width >= height ? { cols: along, rows: 2 } : { cols: 2, rows: along };
}

/** Start and length (shares of the side) of `count` equal spans covering a side with `overlap` between neighbours. */
function spans(count: number, overlap: number): { start: number; length: number }[] {
  const length = 1 / (count - (count - 1) * overlap);
  const step = length * (1 - overlap);
  return Array.from({ length: count }, (_, i) => ({ start: i === count - 1 ? 1 - length : i * step, length }));
}

/** The passes for a frame: the whole frame first, then the tiles row by row. */
export function tilesFor(width: number, height: number, { passes, overlap = TILE_OVERLAP }: TileGridOptions): Tile[] {
  const { cols, rows } = gridFor(width, height, passes);
  if (cols === 0) return [WHOLE_FRAME];
  const tiles: Tile[] = [WHOLE_FRAME];
  for (const row of spans(rows, overlap)) {
    for (const col of spans(cols, overlap)) tiles.push({ x: round6(col.start), y: round6(row.start), w: round6(col.length), h: round6(row.length) });
  }
  return tiles;
}

/** The tile in whole pixels of a width × height frame, for cutting it out (sharp's extract). */
export function tilePixels(tile: Tile, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const left = Math.max(0, Math.min(width - 1, Math.round(tile.x * width)));
  const top = Math.max(0, Math.min(height - 1, Math.round(tile.y * height)));
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.round(tile.w * width))),
    height: Math.max(1, Math.min(height - top, Math.round(tile.h * height))),
  };
}

/** A box found in a tile (shares of the tile) in the frame's shares. */
export function toFrame(box: Box, tile: Tile): Box {
  return [round4(tile.x + box[0] * tile.w), round4(tile.y + box[1] * tile.h), round4(box[2] * tile.w), round4(box[3] * tile.h)];
}

/** Does the box (shares of the tile) touch an edge of its tile that lies inside the frame? Then the tile cut the object. */
export function cutByTile(box: Box, tile: Tile, margin = TILE_EDGE_MARGIN): boolean {
  const inside = (edge: number) => edge > 1e-6 && edge < 1 - 1e-6;
  return (
    (inside(tile.x) && box[0] <= margin) ||
    (inside(tile.y) && box[1] <= margin) ||
    (inside(tile.x + tile.w) && box[0] + box[2] >= 1 - margin) ||
    (inside(tile.y + tile.h) && box[1] + box[3] >= 1 - margin)
  );
}

export function intersection(a: Box, b: Box): number {
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  return w <= 0 || h <= 0 ? 0 : w * h;
}

export function iou(a: Box, b: Box): number {
  const inter = intersection(a, b);
  return inter === 0 ? 0 : inter / (a[2] * a[3] + b[2] * b[3] - inter);
}

/** The share of the smaller box inside the other. */
export function containment(a: Box, b: Box): number {
  const inter = intersection(a, b);
  return inter === 0 ? 0 : inter / Math.min(a[2] * a[3], b[2] * b[3]);
}

/** One pass's objects, boxes as shares of its tile. */
export interface PassResult<T extends BoxedObject> {
  tile: Tile;
  found: T[];
}

export interface MergeOptions {
  iou?: number;
  containment?: number;
}

/** The objects of all passes in the frame's shares, each object once (see the module comment). */
export function mergePasses<T extends BoxedObject>(
  passes: PassResult<T>[],
  { iou: maxIou = MERGE_IOU, containment: maxContainment = MERGE_CONTAINMENT }: MergeOptions = {},
): T[] {
  const kept: T[] = [];
  for (const pass of passes.filter((p) => isWholeFrame(p.tile))) kept.push(...pass.found);
  const fromTiles = passes
    .filter((p) => !isWholeFrame(p.tile))
    .flatMap((p) => p.found.filter((d) => !cutByTile(d.box, p.tile)).map((d) => ({ ...d, box: toFrame(d.box, p.tile) })))
    .sort((a, b) => b.score - a.score);
  for (const candidate of fromTiles) {
    const duplicate = kept.some(
      (k) => k.label === candidate.label && (iou(k.box, candidate.box) > maxIou || containment(k.box, candidate.box) > maxContainment),
    );
    if (!duplicate) kept.push(candidate);
  }
  return kept;
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
const round6 = (v: number) => Math.round(v * 1_000_000) / 1_000_000;
