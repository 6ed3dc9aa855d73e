/**
 * Planar segment predicates for polygon validation, in lng/lat treated as x/y.
 *
 * Every decision here is exact: the orientation predicate falls back to
 * arbitrary-precision arithmetic when floating point cannot be trusted, and
 * all other tests are plain comparisons of input doubles. A validator that
 * says "valid" for a near-degenerate bowtie (or "invalid" for a clean square)
 * because of rounding would be worse than useless to the map UI.
 */

/** An x/y point; extra members (altitude) are ignored. */
export type Point = readonly [number, number, ...number[]];

export type Orientation = -1 | 0 | 1;

/** How two closed segments meet. "touch" = exactly one shared point that is not a crossing. */
export type SegmentContact = "none" | "cross" | "touch" | "overlap";

export type RingLocation = "inside" | "outside" | "boundary";

export interface SegmentBox {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

// Shewchuk's bound for the first-stage orientation filter (Robust Adaptive
// Floating-Point Geometric Predicates, 1997), with epsilon = 2^-53.
const HALF_EPSILON = Number.EPSILON / 2;
const CCW_ERROR_BOUND = (3 + 16 * HALF_EPSILON) * HALF_EPSILON;
// Shewchuk's bound assumes no underflow; below this the products may have
// lost bits silently, so we go straight to the exact path.
const UNDERFLOW_GUARD = 2 ** -900;

/**
 * Sign of the determinant |b-a, c-a|: 1 if a→b→c turns counter-clockwise
 * (c left of the directed line a→b), -1 if clockwise, 0 if collinear.
 */
export function orient2d(a: Point, b: Point, c: Point): Orientation {
  // Differences of doubles are rounded, but never change sign and are zero
  // only when the operands are equal, so the signs below are exact.
  const acx = a[0] - c[0];
  const bcy = b[1] - c[1];
  const acy = a[1] - c[1];
  const bcx = b[0] - c[0];
  const leftSign = Math.sign(acx) * Math.sign(bcy);
  const rightSign = Math.sign(acy) * Math.sign(bcx);
  // Axis-aligned and opposite-sign cases are decided by signs alone; they are
  // very common (rectangles) and would otherwise all hit the slow path.
  if (leftSign === 0 || rightSign === 0 || leftSign !== rightSign) {
    return toOrientation(leftSign - rightSign);
  }
  const detLeft = acx * bcy;
  const detRight = acy * bcx;
  const det = detLeft - detRight;
  const errorBound = CCW_ERROR_BOUND * (Math.abs(detLeft) + Math.abs(detRight));
  const safeFromUnderflow = Math.min(Math.abs(detLeft), Math.abs(detRight)) > UNDERFLOW_GUARD;
  if (safeFromUnderflow && Math.abs(det) > errorBound) return toOrientation(det);
  return orient2dExact(a, b, c);
}

function toOrientation(value: number | bigint): Orientation {
  if (value > 0) return 1;
  if (value < 0) return -1;
  return 0;
}

interface ExactDouble {
  mantissa: bigint;
  exponent: number;
}

/** Splits a finite double into an integer mantissa and a power of two, exactly. */
function decomposeDouble(value: number): ExactDouble {
  if (value === 0) return { mantissa: 0n, exponent: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biasedExponent = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  const isSubnormal = biasedExponent === 0;
  const mantissa = isSubnormal ? fraction : fraction | (1n << 52n);
  const exponent = isSubnormal ? -1074 : biasedExponent - 1075;
  return { mantissa: high >>> 31 === 1 ? -mantissa : mantissa, exponent };
}

/** The slow, always-correct path: the determinant in BigInt on a common power-of-two scale. */
function orient2dExact(a: Point, b: Point, c: Point): Orientation {
  const parts = [a[0], a[1], b[0], b[1], c[0], c[1]].map(decomposeDouble);
  const minExponent = Math.min(...parts.filter((p) => p.mantissa !== 0n).map((p) => p.exponent));
  const [ax, ay, bx, by, cx, cy] = parts.map((p) => p.mantissa << BigInt(p.exponent - minExponent));
  if (ax === undefined || ay === undefined || bx === undefined || by === undefined || cx === undefined || cy === undefined) {
    throw new Error("unreachable: six coordinates expected");
  }
  return toOrientation((ax - cx) * (by - cy) - (ay - cy) * (bx - cx));
}

function samePoint(p: Point, q: Point): boolean {
  return p[0] === q[0] && p[1] === q[1];
}

/** For p already known to be collinear with a–b: is it within the closed segment? */
function withinCollinearSegment(a: Point, b: Point, p: Point): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

/**
 * Classifies how closed segments a1–a2 and b1–b2 meet. Collinear segments
 * sharing more than one point are "overlap"; sharing exactly one point
 * (including a shared endpoint) is "touch".
 */
export function segmentContact(a1: Point, a2: Point, b1: Point, b2: Point): SegmentContact {
  const b1Side = orient2d(a1, a2, b1);
  const b2Side = orient2d(a1, a2, b2);
  if (b1Side !== 0 && b1Side === b2Side) return "none";
  const a1Side = orient2d(b1, b2, a1);
  const a2Side = orient2d(b1, b2, a2);
  if (a1Side !== 0 && a1Side === a2Side) return "none";
  if (b1Side === 0 && b2Side === 0) return collinearContact(a1, a2, b1, b2);
  if (b1Side !== 0 && b2Side !== 0 && a1Side !== 0 && a2Side !== 0) return "cross";
  // One endpoint lies on the other segment's line and the sides differ, so it lies on the segment.
  return "touch";
}

/** Contact between two segments on one line: compare their projections on a non-degenerate axis. */
function collinearContact(a1: Point, a2: Point, b1: Point, b2: Point): SegmentContact {
  if (samePoint(a1, a2)) return withinCollinearSegment(b1, b2, a1) ? "touch" : "none";
  if (samePoint(b1, b2)) return withinCollinearSegment(a1, a2, b1) ? "touch" : "none";
  const axis = a1[0] !== a2[0] ? 0 : 1;
  const start = Math.max(Math.min(a1[axis], a2[axis]), Math.min(b1[axis], b2[axis]));
  const end = Math.min(Math.max(a1[axis], a2[axis]), Math.max(b1[axis], b2[axis]));
  if (start < end) return "overlap";
  return start === end ? "touch" : "none";
}

/**
 * For consecutive segments p–q and q–r, which always share q: do they share
 * anything more? Only possible when the path doubles back on itself (a spike).
 */
export function consecutiveSegmentsOverlap(p: Point, q: Point, r: Point): boolean {
  if (samePoint(p, q) || samePoint(q, r)) return false;
  if (orient2d(p, q, r) !== 0) return false;
  // Collinear: doubling back means p and r lie on the same side of q.
  const axis = p[0] !== q[0] ? 0 : 1;
  return Math.sign(p[axis] - q[axis]) === Math.sign(r[axis] - q[axis]);
}

export function segmentBox(a: Point, b: Point): SegmentBox {
  return {
    minX: Math.min(a[0], b[0]),
    maxX: Math.max(a[0], b[0]),
    minY: Math.min(a[1], b[1]),
    maxY: Math.max(a[1], b[1]),
  };
}

/**
 * Calls visit(i, j) (i < j) for every pair of boxes that overlap or touch,
 * using a sweep along x so that far-apart segments are never compared.
 * visit may return false to stop early (e.g. once enough issues are found).
 */
export function forEachOverlappingBoxPair(boxes: readonly SegmentBox[], visit: (i: number, j: number) => boolean | void): void {
  const order = boxes.map((_, index) => index);
  order.sort((i, j) => minXOf(boxes, i) - minXOf(boxes, j));
  for (let k = 0; k < order.length; k++) {
    const i = order[k] ?? 0;
    const box = boxes[i];
    if (box === undefined) continue;
    for (let l = k + 1; l < order.length; l++) {
      const j = order[l] ?? 0;
      const other = boxes[j];
      if (other === undefined) continue;
      if (other.minX > box.maxX) break;
      if (other.minY > box.maxY || other.maxY < box.minY) continue;
      if (visit(Math.min(i, j), Math.max(i, j)) === false) return;
    }
  }
}

function minXOf(boxes: readonly SegmentBox[], index: number): number {
  return boxes[index]?.minX ?? 0;
}

/**
 * Where a point lies relative to a closed ring (first position repeated last),
 * by exact winding number. Boundary points are reported as such, not guessed.
 */
export function locatePointInRing(point: Point, ring: readonly Point[]): RingLocation {
  let winding = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const a = ring[i];
    const b = ring[i + 1];
    if (a === undefined || b === undefined) continue;
    const side = orient2d(a, b, point);
    if (side === 0 && withinCollinearSegment(a, b, point)) return "boundary";
    if (a[1] <= point[1]) {
      if (b[1] > point[1] && side > 0) winding++;
    } else if (b[1] <= point[1] && side < 0) {
      winding--;
    }
  }
  return winding === 0 ? "outside" : "inside";
}

/**
 * Orientation of a closed ring in the x/y plane. Uses the lowest-then-leftmost
 * vertex, which is always convex in a simple ring, so the answer is exact
 * where a floating-point shoelace sum could cancel to the wrong sign for tiny
 * rings. Degenerate rings fall back to the shoelace sign.
 */
export function ringIsCounterClockwise(ring: readonly Point[]): boolean {
  const distinct = ring.length - 1;
  if (distinct < 3) return true;
  const lowest = lowestVertexIndex(ring, distinct);
  const anchor = ring[lowest];
  const before = neighbourDistinctFrom(ring, distinct, lowest, -1);
  const after = neighbourDistinctFrom(ring, distinct, lowest, 1);
  if (anchor !== undefined && before !== undefined && after !== undefined) {
    const turn = orient2d(before, anchor, after);
    if (turn !== 0) return turn > 0;
  }
  return shoelaceSum(ring) >= 0;
}

function lowestVertexIndex(ring: readonly Point[], distinct: number): number {
  let best = 0;
  for (let i = 1; i < distinct; i++) {
    const candidate = ring[i];
    const current = ring[best];
    if (candidate === undefined || current === undefined) continue;
    if (candidate[1] < current[1] || (candidate[1] === current[1] && candidate[0] < current[0])) best = i;
  }
  return best;
}

/** Nearest vertex in the given direction that is not a duplicate of ring[index]. */
function neighbourDistinctFrom(ring: readonly Point[], distinct: number, index: number, step: 1 | -1): Point | undefined {
  const origin = ring[index];
  if (origin === undefined) return undefined;
  for (let k = 1; k < distinct; k++) {
    const candidate = ring[(((index + step * k) % distinct) + distinct) % distinct];
    if (candidate !== undefined && !samePoint(candidate, origin)) return candidate;
  }
  return undefined;
}

function shoelaceSum(ring: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const a = ring[i];
    const b = ring[i + 1];
    if (a !== undefined && b !== undefined) sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum;
}
