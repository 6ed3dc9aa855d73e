// Where a delivered photo was taken from, against where it should have been taken of: the target,
// the camera's GPS position, and a line from the camera along its compass direction — long enough
// to see whether it points at the target. Pure geometry on a sphere (tests beside).

export interface LngLatPoint {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point `distanceM` from `from` along `bearingDeg` (clockwise from true north). */
export function destination(from: LngLatPoint, bearingDeg: number, distanceM: number): LngLatPoint {
  const d = distanceM / EARTH_RADIUS_M;
  const b = rad(bearingDeg);
  const lat1 = rad(from.lat);
  const lng1 = rad(from.lng);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 = lng1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: deg(lat2), lng: ((deg(lng2) + 540) % 360) - 180 };
}

export function distanceBetweenM(a: LngLatPoint, b: LngLatPoint): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface CameraView {
  target: LngLatPoint;
  camera: LngLatPoint | null;
  directionDeg: number | null;
  /** Where the phone itself said it was (its own geolocation), beside the photo's GPS; absent when it sent none. */
  device?: LngLatPoint | null;
}

type Feature = {
  type: "Feature";
  properties: { role: "target" | "camera" | "direction" | "offset" | "device" | "device_offset" };
  geometry: { type: "Point"; coordinates: [number, number] } | { type: "LineString"; coordinates: [number, number][] };
};

/**
 * The features of the camera layer: the target, the camera, a dashed line camera → target, and
 * the direction line — as long as the camera is from the target (at least 15 m, at most 150 m),
 * so a camera facing the target ends near it.
 */
export function cameraFeatures(view: CameraView): { type: "FeatureCollection"; features: Feature[] } {
  const point = (p: LngLatPoint): [number, number] => [p.lng, p.lat];
  const features: Feature[] = [{ type: "Feature", properties: { role: "target" }, geometry: { type: "Point", coordinates: point(view.target) } }];
  if (view.camera) {
    features.push({ type: "Feature", properties: { role: "offset" }, geometry: { type: "LineString", coordinates: [point(view.camera), point(view.target)] } });
    if (view.directionDeg !== null && Number.isFinite(view.directionDeg)) {
      const length = Math.min(150, Math.max(15, distanceBetweenM(view.camera, view.target)));
      features.push({
        type: "Feature",
        properties: { role: "direction" },
        geometry: { type: "LineString", coordinates: [point(view.camera), point(destination(view.camera, view.directionDeg, length))] },
      });
    }
    features.push({ type: "Feature", properties: { role: "camera" }, geometry: { type: "Point", coordinates: point(view.camera) } });
  }
  if (view.device) {
    if (view.camera)
      features.push({
        type: "Feature",
        properties: { role: "device_offset" },
        geometry: { type: "LineString", coordinates: [point(view.camera), point(view.device)] },
      });
    features.push({ type: "Feature", properties: { role: "device" }, geometry: { type: "Point", coordinates: point(view.device) } });
  }
  return { type: "FeatureCollection", features };
}

/** [west, south, east, north] around the target and the camera, for fitting the map. */
export function cameraBbox(view: CameraView): [number, number, number, number] {
  const points = [view.target, ...(view.camera ? [view.camera] : []), ...(view.device ? [view.device] : [])];
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}
