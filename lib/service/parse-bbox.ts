import { ApiError } from "@/lib/service/errors";

/** Parses a `minLng,minLat,maxLng,maxLat` query parameter, answering 422 when it is not one. */
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
    throw new ApiError(422, "invalid_parameter", `${parameter} must be minLng,minLat,maxLng,maxLat within WGS 84 ranges.`, {
      errors: [{ pointer: parameter, in: "query", message: "Use minLng,minLat,maxLng,maxLat with min ≤ max." }],
    });
  }
  return [minLng, minLat, maxLng, maxLat];
}
