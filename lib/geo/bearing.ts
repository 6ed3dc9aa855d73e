/**
 * Distances and directions between two points on the Earth, for checking where a photo was taken
 * from and which way the camera faced.
 *
 * A sphere is enough here: over the tens to hundreds of metres a verification compares, the
 * spherical and ellipsoidal answers differ by well under a metre and a tenth of a degree — far
 * below a phone's GPS and compass errors.
 */

export interface LatLng {
  lat: number;
  lng: number;
}

/** The IUGG mean Earth radius, metres: the sphere that best fits the ellipsoid (turf uses it too). */
export const EARTH_RADIUS_M = 6_371_008.8;

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (rad: number) => (rad * 180) / Math.PI;

/** Great-circle distance in metres (haversine, which stays exact for points metres apart). */
export function distanceM(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  // min(1, …): rounding can push h a hair above 1 for antipodal points, and asin(>1) is NaN.
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial great-circle bearing from `from` to `to`: degrees clockwise from true north, [0, 360). */
export function bearingDeg(from: LatLng, to: LatLng): number {
  const lat1 = rad(from.lat);
  const lat2 = rad(to.lat);
  const dLng = rad(to.lng - from.lng);
  const y = Math.sin(dLng) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLng);
  return normaliseDeg(deg(Math.atan2(y, x)));
}

/** The smaller angle between two directions, [0, 180]: 350° and 10° are 20° apart, not 340°. */
export function angularDifferenceDeg(a: number, b: number): number {
  const d = normaliseDeg(a - b);
  return d > 180 ? 360 - d : d;
}

/** Any angle in degrees → [0, 360). */
export function normaliseDeg(value: number): number {
  const d = value % 360;
  // `+ 0` turns −0 into 0, so a bearing due north prints as 0, not -0.
  return (d < 0 ? d + 360 : d) + 0;
}

const POINTS = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"] as const;

/** The nearest of the eight compass points, for sentences a person reads ("north-east"). */
export function compassPointName(bearing: number): string {
  return POINTS[Math.round(normaliseDeg(bearing) / 45) % 8] ?? "north";
}
