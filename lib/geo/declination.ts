/**
 * Magnetic declination, and compass readings turned into true-north headings.
 *
 * A phone's compass points to magnetic north, which in 2026 sits 4° east of true north in
 * Florence and 13° west of it in New York; a camera that writes a magnetic direction into the
 * EXIF must be corrected before it is compared with a map bearing, or a photo taken squarely
 * facing its target can look 13° off.
 *
 * The field comes from NOAA's World Magnetic Model through the `geomagnetism` package, which
 * ships the WMM2025 coefficients (valid 2024-11-13 to 2029-11-13) and earlier models, and is
 * tested against NOAA's published test values. It runs offline; nothing here calls a service.
 */
import geomagnetism from "geomagnetism";
import { normaliseDeg } from "@/lib/geo/bearing";

export type DirectionRef = "true" | "magnetic";

/**
 * Magnetic declination at a place and date, degrees, east positive (magnetic north east of true
 * north), from the World Magnetic Model in force on `date`.
 *
 * @param altitudeM height above mean sea level, metres (the model takes kilometres).
 * @throws RangeError for coordinates off the Earth, or a date outside every shipped model's
 *   validity — a model extrapolated past its end drifts, and a wrong correction is worse than
 *   none; a newer `geomagnetism` release brings the next model.
 */
export function magneticDeclinationDeg(lat: number, lng: number, date: Date, altitudeM = 0): number {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw new RangeError(`Not a point on Earth: lat ${lat}, lng ${lng}`);
  }
  if (!Number.isFinite(date.getTime())) throw new RangeError("Invalid Date");
  let model: ReturnType<typeof geomagnetism.model>;
  try {
    model = geomagnetism.model(date);
  } catch (error) {
    throw new RangeError(`No World Magnetic Model covers ${date.toISOString()}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return model.point([lat, lng, (Number.isFinite(altitudeM) ? altitudeM : 0) / 1000]).decl;
}

/**
 * A camera direction as degrees from true north, [0, 360).
 *
 * `ref` is the EXIF GPSImgDirectionRef. When it is missing the direction is taken as true: the
 * EXIF standard (JEITA CP-3451, GPSImgDirectionRef) makes 'T' the default.
 *
 * @throws RangeError when the direction is magnetic and no model covers the date (see
 *   magneticDeclinationDeg).
 */
export function trueHeading(directionDeg: number, ref: DirectionRef | null, lat: number, lng: number, date: Date): number {
  if (ref !== "magnetic") return normaliseDeg(directionDeg);
  // Magnetic north lies `declination` degrees east of true north, so a magnetic reading is that
  // much short of the true one.
  return normaliseDeg(directionDeg + magneticDeclinationDeg(lat, lng, date));
}
