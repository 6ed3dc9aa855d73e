/**
 * Validation and normalisation of a mission's bounds: a GeoJSON Polygon
 * (RFC 7946, WGS 84, [lng, lat] positions) as submitted by API clients.
 *
 * Every issue carries a JSON pointer to the offending member so the API can
 * answer 422 with `errors: [{pointer, message}]` and the map UI can highlight
 * the exact vertex. Checks run in phases, cheapest first, and later phases
 * only run when earlier ones pass, because topology and area are meaningless
 * (or expensive) on malformed input.
 */
import { area } from "@turf/turf";

import {
  consecutiveSegmentsOverlap,
  forEachOverlappingBoxPair,
  locatePointInRing,
  ringIsCounterClockwise,
  segmentBox,
  segmentContact,
  type SegmentBox,
  type SegmentContact,
} from "./segments";

export type Position = [number, number] | [number, number, number];

export interface PolygonGeometry {
  type: "Polygon";
  coordinates: Position[][];
}

export interface GeometryIssue {
  pointer: string;
  message: string;
  code: GeometryIssueCode;
}

export type GeometryIssueCode =
  | "not_polygon"
  | "ring_too_short"
  | "ring_not_closed"
  | "bad_position"
  | "out_of_range"
  | "self_intersection"
  | "ring_intersection"
  | "hole_outside"
  | "too_many_vertices"
  | "area_too_large"
  | "area_too_small"
  | "antimeridian"
  | "duplicate_vertex";

export interface PolygonLimits {
  /** All rings together, closing positions not counted. */
  maxVertices: number;
  maxAreaM2: number;
  minAreaM2: number;
}

export const DEFAULT_POLYGON_LIMITS: PolygonLimits = Object.freeze({
  maxVertices: 1000,
  maxAreaM2: 2_500_000_000,
  minAreaM2: 100,
});

export type PolygonResult =
  | {
      ok: true;
      polygon: PolygonGeometry;
      areaM2: number;
      vertexCount: number;
      bbox: [number, number, number, number];
    }
  | { ok: false; issues: GeometryIssue[] };

// A pathological payload (a million bad numbers, a zig-zag with quadratically
// many crossings) must not turn into a multi-megabyte 422 body; the first
// hundred issues are plenty for a client or a map to act on.
const MAX_ISSUES = 100;

const RING_MIN_POSITIONS = 4;
const MAX_LONGITUDE_SPAN = 180;

/** Accumulates issues up to MAX_ISSUES, building pointers from the caller's base. */
class IssueList {
  readonly items: GeometryIssue[] = [];

  constructor(private readonly basePointer: string) {}

  get full(): boolean {
    return this.items.length >= MAX_ISSUES;
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  add(code: GeometryIssueCode, path: string, message: string): void {
    if (this.full) return;
    this.items.push({ pointer: `${this.basePointer}${path}`, message, code });
  }
}

function coordinatesPath(...indices: number[]): string {
  return ["/coordinates", ...indices].join("/");
}

// ---------------------------------------------------------------------------
// Phase 1: the object itself
// ---------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  return `a ${typeof value}`;
}

/** Returns the raw rings when the outer shape is a Polygon-like object, else records why not. */
function readRawRings(input: unknown, issues: IssueList): unknown[] | undefined {
  if (!isRecord(input)) {
    issues.add("not_polygon", "", `expected a GeoJSON Polygon object, got ${describeType(input)}`);
    return undefined;
  }
  checkTypeMember(input.type, issues);
  const rings = input.coordinates;
  if (!Array.isArray(rings) || rings.length === 0) {
    const got = Array.isArray(rings) ? "an empty array" : describeType(rings);
    issues.add("not_polygon", "/coordinates", `coordinates must be an array of one or more linear rings, got ${got}`);
    return undefined;
  }
  return issues.empty ? rings : undefined;
}

function checkTypeMember(type: unknown, issues: IssueList): void {
  if (type === "Polygon") return;
  // A Feature is the most common mistake; say what to send instead.
  const hint = type === "Feature" ? " (send the Feature's geometry, not the Feature)" : "";
  issues.add("not_polygon", "/type", `type must be "Polygon", got ${describeType(type)}${hint}`);
}

// ---------------------------------------------------------------------------
// Phase 2: rings and positions
// ---------------------------------------------------------------------------

/** Positions of a ring, with undefined where the raw position was unusable. */
type ParsedRing = (Position | undefined)[];

const AXIS_NAMES = ["longitude", "latitude", "altitude"] as const;
const AXIS_LIMITS = [180, 90] as const;

function parsePosition(raw: unknown, ringIndex: number, positionIndex: number, issues: IssueList): Position | undefined {
  const path = coordinatesPath(ringIndex, positionIndex);
  if (!Array.isArray(raw) || raw.length < 2 || raw.length > 3) {
    issues.add("bad_position", path, `position must be an array of 2 or 3 numbers [lng, lat, alt?], got ${describePosition(raw)}`);
    return undefined;
  }
  let usable = true;
  raw.forEach((value: unknown, axis) => {
    if (!checkAxisValue(value, axis, `${path}/${axis}`, issues)) usable = false;
  });
  return usable ? toPosition(raw) : undefined;
}

function describePosition(raw: unknown): string {
  return Array.isArray(raw) ? `an array of ${raw.length}` : describeType(raw);
}

function checkAxisValue(value: unknown, axis: number, path: string, issues: IssueList): boolean {
  const name = AXIS_NAMES[axis] ?? "coordinate";
  if (typeof value !== "number" || !Number.isFinite(value)) {
    issues.add("bad_position", path, `${name} must be a finite number, got ${describeNumberish(value)}`);
    return false;
  }
  const limit = AXIS_LIMITS[axis];
  if (limit !== undefined && Math.abs(value) > limit) {
    issues.add("out_of_range", path, `${name} ${value} is outside [-${limit}, ${limit}]`);
    return false;
  }
  return true;
}

function describeNumberish(value: unknown): string {
  return typeof value === "number" ? String(value) : describeType(value);
}

/** Only called once every member is known to be a finite number. */
function toPosition(raw: readonly unknown[]): Position {
  const [lng, lat, alt] = raw.map(Number);
  return alt === undefined ? [lng ?? 0, lat ?? 0] : [lng ?? 0, lat ?? 0, alt];
}

/** Same horizontal point: what matters for edges, whatever the altitudes. */
function sameLngLat(a: Position, b: Position): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** RFC 7946 wants the closing position identical to the first, altitude included. */
function identicalPositions(a: Position, b: Position): boolean {
  return a.length === b.length && a.every((value, axis) => value === b[axis]);
}

function parseRing(raw: unknown, ringIndex: number, issues: IssueList): ParsedRing | undefined {
  if (!Array.isArray(raw)) {
    issues.add("not_polygon", coordinatesPath(ringIndex), `linear ring must be an array of positions, got ${describeType(raw)}`);
    return undefined;
  }
  const ring = raw.map((position: unknown, index) => parsePosition(position, ringIndex, index, issues));
  checkRingLength(ring, ringIndex, issues);
  checkRingClosed(ring, ringIndex, issues);
  checkConsecutiveDuplicates(ring, ringIndex, issues);
  return ring;
}

function checkRingLength(ring: ParsedRing, ringIndex: number, issues: IssueList): void {
  if (ring.length >= RING_MIN_POSITIONS) return;
  issues.add(
    "ring_too_short",
    coordinatesPath(ringIndex),
    `linear ring has ${ring.length} position(s); at least ${RING_MIN_POSITIONS} are required (a closed triangle)`,
  );
}

function checkRingClosed(ring: ParsedRing, ringIndex: number, issues: IssueList): void {
  const lastIndex = ring.length - 1;
  const first = ring[0];
  const last = ring[lastIndex];
  if (lastIndex < 1 || first === undefined || last === undefined || identicalPositions(first, last)) return;
  issues.add("ring_not_closed", coordinatesPath(ringIndex, lastIndex), `linear ring is not closed: last position must repeat the first, [${first.join(", ")}]`);
}

function checkConsecutiveDuplicates(ring: ParsedRing, ringIndex: number, issues: IssueList): void {
  for (let i = 1; i < ring.length; i++) {
    const previous = ring[i - 1];
    const current = ring[i];
    if (previous === undefined || current === undefined || !sameLngLat(previous, current)) continue;
    issues.add("duplicate_vertex", coordinatesPath(ringIndex, i), `position ${i} repeats position ${i - 1}; remove the duplicate vertex`);
  }
}

function checkLongitudeSpan(ring: Position[], ringIndex: number, issues: IssueList): void {
  const longitudes = ring.map((position) => position[0]);
  const span = Math.max(...longitudes) - Math.min(...longitudes);
  if (span <= MAX_LONGITUDE_SPAN) return;
  issues.add(
    "antimeridian",
    coordinatesPath(ringIndex),
    `linear ring spans ${formatNumber(span, 6)}° of longitude; rings crossing the antimeridian must be split (RFC 7946 §3.1.9) and are not accepted`,
  );
}

/** Closing positions are not vertices; counted from the raw arrays so it works even on broken rings. */
function countVertices(rings: readonly unknown[]): number {
  return rings.reduce<number>((sum, ring) => sum + (Array.isArray(ring) ? Math.max(ring.length - 1, 0) : 0), 0);
}

function checkVertexCount(count: number, limits: PolygonLimits, issues: IssueList): void {
  if (count <= limits.maxVertices) return;
  issues.add("too_many_vertices", "/coordinates", `polygon has ${count} vertices; the maximum is ${limits.maxVertices}`);
}

function isCompleteRing(ring: ParsedRing | undefined): ring is Position[] {
  return ring !== undefined && ring.every((position) => position !== undefined);
}

/** Returns fully parsed rings when every structural rule holds, else undefined. */
function parseStructure(rawRings: unknown[], limits: PolygonLimits, issues: IssueList): Position[][] | undefined {
  // Counted first so an oversized payload is named as such even if the issue cap fills up.
  checkVertexCount(countVertices(rawRings), limits, issues);
  const rings = rawRings.map((raw, index) => parseRing(raw, index, issues));
  rings.forEach((ring, index) => {
    if (isCompleteRing(ring) && ring.length > 0) checkLongitudeSpan(ring, index, issues);
  });
  if (!issues.empty) return undefined;
  return rings.filter(isCompleteRing);
}

// ---------------------------------------------------------------------------
// Phase 3: topology (planar lng/lat, exact predicates)
// ---------------------------------------------------------------------------

interface RingSegment {
  ring: number;
  /** Index of the segment's first position within its ring. */
  start: number;
}

interface SegmentIndex {
  segments: RingSegment[];
  boxes: SegmentBox[];
}

function indexSegments(rings: Position[][]): SegmentIndex {
  const segments: RingSegment[] = [];
  const boxes: SegmentBox[] = [];
  rings.forEach((ring, ringIndex) => {
    for (let start = 0; start + 1 < ring.length; start++) {
      const a = ring[start];
      const b = ring[start + 1];
      if (a === undefined || b === undefined) continue;
      segments.push({ ring: ringIndex, start });
      boxes.push(segmentBox(a, b));
    }
  });
  return { segments, boxes };
}

interface Contact {
  first: RingSegment;
  second: RingSegment;
  kind: Exclude<SegmentContact, "none">;
}

function endpoints(rings: Position[][], segment: RingSegment): [Position, Position] | undefined {
  const ring = rings[segment.ring];
  const a = ring?.[segment.start];
  const b = ring?.[segment.start + 1];
  return a === undefined || b === undefined ? undefined : [a, b];
}

/**
 * Segments of one ring that follow each other share a vertex by construction;
 * that is not an intersection unless the ring doubles back over itself.
 * Returns undefined when the pair is not consecutive.
 */
function consecutiveContact(rings: Position[][], first: RingSegment, second: RingSegment): SegmentContact | undefined {
  if (first.ring !== second.ring) return undefined;
  const segmentCount = (rings[first.ring]?.length ?? 0) - 1;
  const [lower, upper] = first.start < second.start ? [first, second] : [second, first];
  const joined = upper.start === lower.start + 1;
  const wrapsAround = lower.start === 0 && upper.start === segmentCount - 1;
  if (!joined && !wrapsAround) return undefined;
  const [before, after] = joined ? [lower, upper] : [upper, lower];
  const a = endpoints(rings, before);
  const b = endpoints(rings, after);
  if (a === undefined || b === undefined) return "none";
  return consecutiveSegmentsOverlap(a[0], a[1], b[1]) ? "overlap" : "none";
}

function classifyPair(rings: Position[][], first: RingSegment, second: RingSegment): SegmentContact {
  const consecutive = consecutiveContact(rings, first, second);
  if (consecutive !== undefined) return consecutive;
  const a = endpoints(rings, first);
  const b = endpoints(rings, second);
  if (a === undefined || b === undefined) return "none";
  return segmentContact(a[0], a[1], b[0], b[1]);
}

/** Orders a pair so the issue points at a deterministic, meaningful segment. */
function orderPair(a: RingSegment, b: RingSegment): [RingSegment, RingSegment] {
  // Across rings, point at the later ring (usually the hole being drawn);
  // within a ring, at the earlier segment.
  if (a.ring !== b.ring) return a.ring > b.ring ? [a, b] : [b, a];
  return a.start <= b.start ? [a, b] : [b, a];
}

function findContacts(rings: Position[][]): Contact[] {
  const { segments, boxes } = indexSegments(rings);
  const contacts: Contact[] = [];
  forEachOverlappingBoxPair(boxes, (i, j) => {
    const a = segments[i];
    const b = segments[j];
    if (a === undefined || b === undefined) return true;
    const kind = classifyPair(rings, a, b);
    if (kind !== "none") {
      const [first, second] = orderPair(a, b);
      contacts.push({ first, second, kind });
    }
    return contacts.length < MAX_ISSUES;
  });
  return contacts.sort(compareContacts);
}

function compareContacts(x: Contact, y: Contact): number {
  return x.first.ring - y.first.ring || x.first.start - y.first.start || x.second.ring - y.second.ring || x.second.start - y.second.start;
}

const CONTACT_VERBS: Record<Contact["kind"], string> = {
  cross: "crosses",
  touch: "touches",
  overlap: "overlaps",
};

function edgeLabel(segment: RingSegment): string {
  return `edge ${segment.start}–${segment.start + 1}`;
}

function ringLabel(ringIndex: number): string {
  return ringIndex === 0 ? "exterior ring" : `hole ${ringIndex}`;
}

function reportContact(contact: Contact, issues: IssueList): void {
  const { first, second, kind } = contact;
  const verb = CONTACT_VERBS[kind];
  const path = coordinatesPath(first.ring, first.start);
  if (first.ring === second.ring) {
    issues.add("self_intersection", path, `${edgeLabel(first)} ${verb} ${edgeLabel(second)} of the same ring`);
    return;
  }
  issues.add(
    "ring_intersection",
    path,
    `${ringLabel(first.ring)} ${edgeLabel(first)} ${verb} ${ringLabel(second.ring)} ${edgeLabel(second)}; rings must not cross or touch`,
  );
}

/**
 * With boundaries known not to meet, one vertex decides which side a whole
 * ring is on; that keeps this check linear instead of quadratic.
 */
function checkHolePlacement(rings: Position[][], contacts: Contact[], issues: IssueList): void {
  const meets = new Set(contacts.map((c) => `${c.first.ring}:${c.second.ring}`));
  const boundariesMeet = (a: number, b: number): boolean => meets.has(`${a}:${b}`) || meets.has(`${b}:${a}`);
  const [exterior, ...holes] = rings;
  if (exterior === undefined) return;
  holes.forEach((hole, offset) => {
    const holeIndex = offset + 1;
    const probe = hole[0];
    if (probe === undefined || boundariesMeet(0, holeIndex)) return;
    if (locatePointInRing(probe, exterior) === "outside") {
      issues.add("hole_outside", coordinatesPath(holeIndex), `${ringLabel(holeIndex)} lies outside the exterior ring`);
      return;
    }
    checkHoleNotNested(rings, holeIndex, boundariesMeet, issues);
  });
}

/** A hole inside another hole would be subtracted twice from the area, so it is refused too. */
function checkHoleNotNested(rings: Position[][], holeIndex: number, boundariesMeet: (a: number, b: number) => boolean, issues: IssueList): void {
  const probe = rings[holeIndex]?.[0];
  if (probe === undefined) return;
  for (let other = 1; other < rings.length; other++) {
    const otherRing = rings[other];
    if (other === holeIndex || otherRing === undefined || boundariesMeet(holeIndex, other)) continue;
    if (locatePointInRing(probe, otherRing) !== "inside") continue;
    issues.add("ring_intersection", coordinatesPath(holeIndex), `${ringLabel(holeIndex)} lies inside ${ringLabel(other)}; holes must not overlap`);
    return;
  }
}

function checkTopology(rings: Position[][], issues: IssueList): void {
  const contacts = findContacts(rings);
  contacts.forEach((contact) => reportContact(contact, issues));
  checkHolePlacement(rings, contacts, issues);
}

// ---------------------------------------------------------------------------
// Phase 4: area
// ---------------------------------------------------------------------------

function formatNumber(value: number, maximumFractionDigits: number): string {
  return new Intl.NumberFormat("en-US", { maximumFractionDigits }).format(value);
}

/** Human-readable area: km² for mission-sized areas, m² for small ones. */
function formatArea(areaM2: number): string {
  if (areaM2 >= 1_000_000) return `${formatNumber(areaM2 / 1_000_000, 2)} km²`;
  return `${formatNumber(areaM2, 1)} m²`;
}

function checkArea(areaM2: number, limits: PolygonLimits, issues: IssueList): void {
  if (areaM2 > limits.maxAreaM2) {
    issues.add("area_too_large", "/coordinates", `area ${formatArea(areaM2)} exceeds the maximum of ${formatArea(limits.maxAreaM2)}`);
  } else if (areaM2 < limits.minAreaM2) {
    issues.add("area_too_small", "/coordinates", `area ${formatArea(areaM2)} is below the minimum of ${formatArea(limits.minAreaM2)}`);
  }
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

function resolveLimits(overrides: Partial<PolygonLimits> | undefined): PolygonLimits {
  // `??` per field rather than spread, so an explicit `undefined` keeps the default.
  return {
    maxVertices: overrides?.maxVertices ?? DEFAULT_POLYGON_LIMITS.maxVertices,
    maxAreaM2: overrides?.maxAreaM2 ?? DEFAULT_POLYGON_LIMITS.maxAreaM2,
    minAreaM2: overrides?.minAreaM2 ?? DEFAULT_POLYGON_LIMITS.minAreaM2,
  };
}

function failure(issues: IssueList): PolygonResult {
  return { ok: false, issues: issues.items };
}

/**
 * Validates untrusted input as a mission-bounds Polygon. On success the
 * returned polygon is a fresh object (extra members such as `bbox` dropped,
 * altitudes kept) with RFC 7946 winding.
 */
export function validatePolygon(input: unknown, options?: { limits?: Partial<PolygonLimits>; basePointer?: string }): PolygonResult {
  const limits = resolveLimits(options?.limits);
  const issues = new IssueList(options?.basePointer ?? "");
  const rawRings = readRawRings(input, issues);
  if (rawRings === undefined) return failure(issues);
  const rings = parseStructure(rawRings, limits, issues);
  if (rings === undefined) return failure(issues);
  checkTopology(rings, issues);
  if (!issues.empty) return failure(issues);
  const polygon = normaliseWinding({ type: "Polygon", coordinates: rings });
  const areaM2 = polygonAreaM2(polygon);
  checkArea(areaM2, limits, issues);
  if (!issues.empty) return failure(issues);
  return {
    ok: true,
    polygon,
    areaM2,
    vertexCount: countVertices(rings),
    bbox: polygonBbox(polygon),
  };
}

/** Geodesic area in m² (exterior minus holes), on turf's spherical Earth model. */
export function polygonAreaM2(polygon: PolygonGeometry): number {
  return area(polygon);
}

/** [minLng, minLat, maxLng, maxLat] over every position of every ring. */
export function polygonBbox(polygon: PolygonGeometry): [number, number, number, number] {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (const ring of polygon.coordinates) {
    for (const [lng, lat] of ring) {
      minLng = Math.min(minLng, lng);
      minLat = Math.min(minLat, lat);
      maxLng = Math.max(maxLng, lng);
      maxLat = Math.max(maxLat, lat);
    }
  }
  return [minLng, minLat, maxLng, maxLat];
}

function copyPosition(position: Position): Position {
  return position.length === 3 ? [position[0], position[1], position[2]] : [position[0], position[1]];
}

function orientRing(ring: Position[], counterClockwise: boolean): Position[] {
  const copy = ring.map(copyPosition);
  // Reversing a closed ring keeps it closed: first and last swap places.
  return ringIsCounterClockwise(ring) === counterClockwise ? copy : copy.reverse();
}

/**
 * RFC 7946 right-hand rule: exterior ring counter-clockwise, holes clockwise
 * (in lng/lat as x/y). Returns a new object; the input is not touched.
 */
export function normaliseWinding(polygon: PolygonGeometry): PolygonGeometry {
  return {
    type: "Polygon",
    coordinates: polygon.coordinates.map((ring, index) => orientRing(ring, index === 0)),
  };
}
