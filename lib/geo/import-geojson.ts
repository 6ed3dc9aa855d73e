/**
 * Reads mission bounds from an uploaded GeoJSON file: a Polygon, or one polygon wrapped in a
 * MultiPolygon, Feature, FeatureCollection or GeometryCollection (what QGIS, geojson.io and
 * HOT's tools export). Altitudes are stripped and coordinates rounded like drawn ones. Only the
 * shape is extracted here; whether the API would accept it is describeDraft's job, so a partner
 * sees the same messages for an uploaded outline as for a drawn one.
 */
import { roundPolygonCoordinates } from "./coordinate-precision";
import type { PolygonGeometry, Position } from "./polygon";

export type ImportResult = { ok: true; polygon: PolygonGeometry } | { ok: false; error: string };

/** Mission bounds files are a few kilobytes; anything far larger is the wrong file. */
export const MAX_IMPORT_CHARACTERS = 5_000_000;

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A polygon found in the file, and where, for error messages. */
interface Found {
  rings: Json;
  where: string;
}

class ImportError extends Error {}

function describeType(value: Json): string {
  if (isRecord(value) && typeof value.type === "string") return `a ${value.type}`;
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return `a ${typeof value}`;
}

/** Collects every polygon in a GeoJSON object; points and lines are skipped. */
function collectPolygons(value: Json, where: string, found: Found[]): void {
  if (!isRecord(value)) throw new ImportError(`${capitalise(where)} is ${describeType(value)}, not a GeoJSON object.`);
  switch (value.type) {
    case "Polygon":
      found.push({ rings: value.coordinates, where });
      return;
    case "MultiPolygon": {
      const parts = Array.isArray(value.coordinates) ? value.coordinates : [];
      if (parts.length !== 1) {
        throw new ImportError(
          `${capitalise(where)} is a MultiPolygon with ${parts.length} parts; mission bounds are one area. Split it into separate missions or merge the parts.`,
        );
      }
      found.push({ rings: parts[0], where });
      return;
    }
    case "Feature":
      if (value.geometry === null || value.geometry === undefined) return;
      collectPolygons(value.geometry, where === "the file" ? "the feature" : where, found);
      return;
    case "FeatureCollection": {
      const features = Array.isArray(value.features) ? value.features : [];
      features.forEach((feature, index) => collectPolygons(feature, `feature ${index + 1}`, found));
      return;
    }
    case "GeometryCollection": {
      const geometries = Array.isArray(value.geometries) ? value.geometries : [];
      geometries.forEach((geometry, index) => collectPolygons(geometry, `geometry ${index + 1}`, found));
      return;
    }
    case "Point":
    case "MultiPoint":
    case "LineString":
    case "MultiLineString":
      return;
    default:
      throw new ImportError(`${capitalise(where)} has type ${JSON.stringify(value.type) ?? "(none)"}, which is not GeoJSON.`);
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** RFC 7946 dropped `crs`, but older exports still name one; only WGS 84 longitude/latitude works. */
function checkCrs(root: Json): void {
  if (!isRecord(root) || !isRecord(root.crs)) return;
  const properties = isRecord(root.crs.properties) ? root.crs.properties : {};
  const name = typeof properties.name === "string" ? properties.name : "";
  if (/CRS84|EPSG:?:?4326\b/i.test(name)) return;
  throw new ImportError(
    `The file uses the coordinate system ${name || "named in its crs member"}; export it as WGS 84 longitude/latitude (EPSG:4326) instead.`,
  );
}

function readPosition(raw: Json, where: string): Position {
  if (!Array.isArray(raw) || raw.length < 2 || typeof raw[0] !== "number" || typeof raw[1] !== "number") {
    throw new ImportError(`${capitalise(where)} has a position that is not [longitude, latitude].`);
  }
  if (!Number.isFinite(raw[0]) || !Number.isFinite(raw[1])) {
    throw new ImportError(`${capitalise(where)} has a position with a coordinate that is not a finite number.`);
  }
  return [raw[0], raw[1]];
}

function readRings(found: Found): PolygonGeometry {
  if (!Array.isArray(found.rings) || found.rings.length === 0) {
    throw new ImportError(`${capitalise(found.where)} has no coordinates.`);
  }
  const coordinates = found.rings.map((ring: Json) => {
    if (!Array.isArray(ring)) throw new ImportError(`${capitalise(found.where)} has a ring that is not a list of positions.`);
    return ring.map((position: Json) => readPosition(position, found.where));
  });
  return { type: "Polygon", coordinates };
}

/** Parses an uploaded file's text into one Polygon, or says in a sentence why it cannot. */
export function importPolygonGeoJson(text: string): ImportResult {
  if (text.length > MAX_IMPORT_CHARACTERS) {
    return { ok: false, error: `The file is too large (${Math.round(text.length / 1_000_000)} MB); mission bounds fit in a few kilobytes.` };
  }
  let root: Json;
  try {
    root = JSON.parse(text);
  } catch {
    return { ok: false, error: "The file is not valid JSON. Upload a .geojson or .json file with a Polygon." };
  }
  try {
    checkCrs(root);
    const found: Found[] = [];
    collectPolygons(root, "the file", found);
    const [only, second] = found;
    if (only === undefined) {
      return { ok: false, error: "The file contains no polygon. Mission bounds must be a Polygon." };
    }
    if (second !== undefined) {
      return {
        ok: false,
        error: `The file contains ${found.length} polygons (${found.map((f) => f.where).join(", ")}); upload one area at a time.`,
      };
    }
    return { ok: true, polygon: roundPolygonCoordinates(readRings(only)) };
  } catch (error) {
    if (error instanceof ImportError) return { ok: false, error: error.message };
    throw error;
  }
}
