/**
 * What the map shows beside a polygon being drawn: its area, its vertex count and, in words a
 * partner understands, why the API would refuse it. The verdict comes from validatePolygon with
 * the API's own limits, so the map and the API can never disagree about what is acceptable.
 */
import {
  DEFAULT_POLYGON_LIMITS,
  polygonAreaM2,
  validatePolygon,
  type GeometryIssue,
  type GeometryIssueCode,
  type PolygonGeometry,
  type PolygonLimits,
} from "./polygon";

/**
 * What an issue is about, as values a page puts into a sentence in the reader's language
 * (missions.editor.issues.*); null when only the English `message` says it (outlines a GeoJSON
 * import brings, never drawn on the map). Vertex numbers are 1-based; `ring` names the outline or a hole.
 */
export type DraftIssueDetail =
  | { kind: "too_many_vertices"; count: number; limit: number }
  | { kind: "area_too_large" | "area_too_small"; areaM2: number; limitM2: number }
  | { kind: "self_intersection"; ring: RingRef; contact: "crosses" | "touches" | "overlaps"; a: number; b: number; c: number; d: number }
  | { kind: "duplicate_vertex"; ring: RingRef; vertex: number; repeats: number }
  | { kind: "ring_too_short"; ring: RingRef }
  | { kind: "antimeridian" }
  | { kind: "hole_outside"; ring: RingRef };

/** The outline, or hole n (1-based, as the API's rings after the outline). */
export type RingRef = { ring: "outline" } | { ring: "hole"; hole: number };

export interface DraftIssue {
  code: GeometryIssueCode;
  /** A sentence for people in English, with 1-based vertex numbers. */
  message: string;
  detail: DraftIssueDetail | null;
  /** The validator's JSON pointer, e.g. "/coordinates/0/3". */
  pointer: string;
  /** 0-based indices into the exterior ring (the closing position never appears) to highlight. */
  vertices: number[];
}

export interface DraftDescription {
  /** Geodesic area in m²; null while the outline is too broken for an area to mean anything. */
  areaM2: number | null;
  /** Vertices of all rings, closing positions not counted. */
  vertexCount: number;
  issues: DraftIssue[];
  /** True when the API would accept the polygon as mission bounds. */
  valid: boolean;
}

// Issues after which an area is meaningless (crossing edges count some of the surface twice).
const AREA_BLOCKERS = new Set<GeometryIssueCode>([
  "not_polygon",
  "ring_too_short",
  "ring_not_closed",
  "bad_position",
  "out_of_range",
  "self_intersection",
  "ring_intersection",
  "antimeridian",
]);

const numberFormat = (maximumFractionDigits: number) => new Intl.NumberFormat("en-US", { maximumFractionDigits });

/** 950 m², 12.4 ha, 3.25 km², 48.2 km², 2,500 km²: the unit a partner would use for that size. */
export function formatArea(areaM2: number): string {
  const value = Math.max(0, areaM2);
  if (value < 10_000) return `${numberFormat(0).format(value)} m²`;
  if (value < 1_000_000) return `${numberFormat(1).format(value / 10_000)} ha`;
  const km2 = value / 1_000_000;
  const digits = km2 < 10 ? 2 : km2 < 100 ? 1 : 0;
  return `${numberFormat(digits).format(km2)} km²`;
}

function countVertices(polygon: PolygonGeometry): number {
  return polygon.coordinates.reduce((sum, ring) => sum + Math.max(ring.length - 1, 0), 0);
}

interface PointerTarget {
  ring: number;
  position: number | null;
}

function parsePointer(pointer: string): PointerTarget | null {
  const match = /^\/coordinates\/(\d+)(?:\/(\d+))?/.exec(pointer);
  if (!match) return null;
  return { ring: Number(match[1]), position: match[2] === undefined ? null : Number(match[2]) };
}

/** Vertex number for people: 1-based, and the closing position is vertex 1 again. */
function vertexNumber(index: number, ringVertices: number): number {
  return ringVertices > 0 ? (index % ringVertices) + 1 : index + 1;
}

function ringName(ring: number): string {
  return ring === 0 ? "the outline" : `hole ${ring}`;
}

function ringRef(ring: number): RingRef {
  return ring === 0 ? { ring: "outline" } : { ring: "hole", hole: ring };
}

const CONTACT_WORDS: Record<string, string> = { crosses: "crosses", touches: "touches", overlaps: "runs along" };

function describeSelfIntersection(issue: GeometryIssue, ringVertices: number, ring: number): DraftIssue | null {
  // validatePolygon names the two edges in its message: "edge 2–3 crosses edge 5–6 of the same ring".
  const match = /edge (\d+)–(\d+) (crosses|touches|overlaps) edge (\d+)–(\d+)/.exec(issue.message);
  if (!match) return null;
  const [a, b, c, d] = [Number(match[1]), Number(match[2]), Number(match[4]), Number(match[5])];
  const verb = match[3] === "touches" || match[3] === "overlaps" ? match[3] : "crosses";
  const edge = (from: number, to: number) => `the edge from vertex ${vertexNumber(from, ringVertices)} to ${vertexNumber(to, ringVertices)}`;
  const subject = ring === 0 ? "The outline crosses itself" : `Hole ${ring} crosses itself`;
  const vertices = ring === 0 ? [...new Set([a, b, c, d].map((i) => i % Math.max(ringVertices, 1)))] : [];
  return {
    code: issue.code,
    pointer: issue.pointer,
    message: `${subject}: ${edge(a, b)} ${CONTACT_WORDS[verb] ?? verb} ${edge(c, d)}.`,
    detail: {
      kind: "self_intersection",
      ring: ringRef(ring),
      contact: verb,
      a: vertexNumber(a, ringVertices),
      b: vertexNumber(b, ringVertices),
      c: vertexNumber(c, ringVertices),
      d: vertexNumber(d, ringVertices),
    },
    vertices,
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function humanise(issue: GeometryIssue, polygon: PolygonGeometry, limits: PolygonLimits): DraftIssue {
  const target = parsePointer(issue.pointer);
  const ring = target?.ring ?? 0;
  const ringVertices = Math.max((polygon.coordinates[ring]?.length ?? 1) - 1, 0);
  const atVertex = target?.position ?? null;
  const vertices = ring === 0 && atVertex !== null ? [atVertex % Math.max(ringVertices, 1)] : [];
  const base = { code: issue.code, pointer: issue.pointer, vertices, detail: null };
  switch (issue.code) {
    case "too_many_vertices":
      return {
        ...base,
        message: `Too many vertices: ${numberFormat(0).format(countVertices(polygon))} (the limit is ${numberFormat(0).format(limits.maxVertices)}). Simplify the outline.`,
        detail: { kind: "too_many_vertices", count: countVertices(polygon), limit: limits.maxVertices },
      };
    case "area_too_large":
      return {
        ...base,
        message: `The area is too large: ${formatArea(polygonAreaM2(polygon))} (the limit is ${formatArea(limits.maxAreaM2)}).`,
        detail: { kind: "area_too_large", areaM2: polygonAreaM2(polygon), limitM2: limits.maxAreaM2 },
      };
    case "area_too_small":
      return {
        ...base,
        message: `The area is too small: ${formatArea(polygonAreaM2(polygon))} (the minimum is ${formatArea(limits.minAreaM2)}).`,
        detail: { kind: "area_too_small", areaM2: polygonAreaM2(polygon), limitM2: limits.minAreaM2 },
      };
    case "self_intersection":
      return describeSelfIntersection(issue, ringVertices, ring) ?? { ...base, message: capitalise(issue.message) };
    case "duplicate_vertex":
      return atVertex === null
        ? { ...base, message: capitalise(issue.message) }
        : {
            ...base,
            message: `Vertex ${vertexNumber(atVertex, ringVertices)} of ${ringName(ring)} repeats vertex ${vertexNumber(atVertex - 1, ringVertices)}; remove one of them.`,
            detail: {
              kind: "duplicate_vertex",
              ring: ringRef(ring),
              vertex: vertexNumber(atVertex, ringVertices),
              repeats: vertexNumber(atVertex - 1, ringVertices),
            },
          };
    case "ring_too_short":
      return { ...base, message: `${capitalise(ringName(ring))} needs at least 3 vertices.`, detail: { kind: "ring_too_short", ring: ringRef(ring) } };
    case "antimeridian":
      return {
        ...base,
        message: "The area crosses the 180° meridian, which missions cannot do. Split it into two missions.",
        detail: { kind: "antimeridian" },
      };
    case "hole_outside":
      return { ...base, message: `${capitalise(ringName(ring))} lies outside the outline.`, detail: { kind: "hole_outside", ring: ringRef(ring) } };
    default:
      return { ...base, message: capitalise(issue.message) };
  }
}

/** Area, vertex count and human-readable issues for a draft polygon, judged by the API's rules. */
export function describeDraft(polygon: PolygonGeometry, limits: PolygonLimits = DEFAULT_POLYGON_LIMITS): DraftDescription {
  const result = validatePolygon(polygon, { limits });
  if (result.ok) {
    return { areaM2: result.areaM2, vertexCount: result.vertexCount, issues: [], valid: true };
  }
  const blocked = result.issues.some((issue) => AREA_BLOCKERS.has(issue.code));
  return {
    areaM2: blocked ? null : polygonAreaM2(polygon),
    vertexCount: countVertices(polygon),
    issues: result.issues.map((issue) => humanise(issue, polygon, limits)),
    valid: false,
  };
}
