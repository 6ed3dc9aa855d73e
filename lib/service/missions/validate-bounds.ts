import { validatePolygon, type PolygonGeometry } from "@/lib/geo/polygon";
import { ApiError } from "@/lib/service/errors";

export interface ValidBounds {
  polygon: PolygonGeometry;
  areaM2: number;
  bbox: [number, number, number, number];
}

/** Validates mission bounds, answering 422 with a pointer at each offending coordinate. */
export function validateBounds(bounds: unknown, pointer = "/bounds"): ValidBounds {
  const result = validatePolygon(bounds, { basePointer: pointer });
  if (!result.ok) {
    throw new ApiError(422, "invalid_geometry", "The mission bounds are not a valid polygon.", {
      errors: result.issues.map((issue) => ({ pointer: issue.pointer, message: issue.message, in: "body", code: issue.code })),
    });
  }
  return { polygon: result.polygon, areaM2: result.areaM2, bbox: result.bbox };
}

/** The mission row's columns for valid bounds: the polygon, its area and its bounding box. */
export function boundsColumns({ polygon, areaM2, bbox }: ValidBounds) {
  return { bounds: polygon, areaM2, minLng: bbox[0], minLat: bbox[1], maxLng: bbox[2], maxLat: bbox[3] };
}
