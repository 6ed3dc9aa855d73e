// Parsers for list filters in query strings; a bad value answers 422 naming the parameter, with
// the same code as any other validation failure.
import { ApiError } from "@/lib/service/errors";

function invalid(parameter: string, detail: string, message: string): ApiError {
  return new ApiError(422, "validation_failed", detail, { errors: [{ pointer: parameter, in: "query", message }] });
}

/** Parses a `minLng,minLat,maxLng,maxLat` parameter. */
export function parseBbox(value: string, parameter = "bbox"): [number, number, number, number] {
  const parts = value.split(",").map((p) => Number(p.trim()));
  const [minLng = NaN, minLat = NaN, maxLng = NaN, maxLat = NaN] = parts;
  const valid =
    parts.length === 4 &&
    parts.every(Number.isFinite) &&
    Math.abs(minLng) <= 180 &&
    Math.abs(maxLng) <= 180 &&
    Math.abs(minLat) <= 90 &&
    Math.abs(maxLat) <= 90 &&
    minLng <= maxLng &&
    minLat <= maxLat;
  if (!valid) {
    throw invalid(parameter, `${parameter} must be minLng,minLat,maxLng,maxLat within WGS 84 ranges.`, "Use minLng,minLat,maxLng,maxLat with min ≤ max.");
  }
  return [minLng, minLat, maxLng, maxLat];
}

/**
 * Parses a comma-separated status filter. `all` means no filter (null); an absent value gives
 * `fallback` (null for no filter).
 */
export function parseStatusFilter<S extends string>(value: string | undefined, allowed: readonly S[], fallback: S[] | null): S[] | null {
  if (!value) return fallback;
  if (value === "all") return null;
  const names = value.split(",").map((s) => s.trim());
  const bad = names.filter((n) => !(allowed as readonly string[]).includes(n));
  if (bad.length > 0) {
    throw invalid("status", `Unknown status ${bad.map((b) => `"${b}"`).join(", ")}.`, `Use ${allowed.join(", ")} or all.`);
  }
  return names as S[];
}
