// Each place's history from the candidates the statement read (delivery-history.ts): the
// distances, the radius and the newest MAX_SIMILAR_TASKS per place, worked out here rather than in
// SQL, where PGlite's interpreter spent several microseconds of trigonometry on every pair of place
// and candidate. Pure: no clock, no database.
import { distanceM } from "@/lib/geo/bearing";
import { ESTIMATE_RADII_KM, MAX_ESTIMATE_RADIUS_KM, MAX_SIMILAR_TASKS, type NearbyZoomer, type PastTask } from "@/lib/orders/delivery-estimate";

export interface PlaceHistory {
  /** Newest delivery first. */
  tasks: PastTask[];
  /** Nearest first. */
  zoomers: NearbyZoomer[];
}

/** A location delivered in the last HISTORY_DAYS days: where, when (epoch seconds) and in how many hours from its opening. */
export interface DeliveredCandidate {
  id: string;
  lat: number;
  lng: number;
  hours: number;
  at: number;
}

/** Where a contributor sent a photo in the last ACTIVE_ZOOMER_DAYS days. */
export interface SubmissionCandidate {
  zoomerId: string;
  lat: number;
  lng: number;
}

export interface Place {
  lat: number;
  lng: number;
}

const KM_PER_DEGREE = 111.2;
const NARROW_KM = ESTIMATE_RADII_KM[0];
/** The half-height in degrees of latitude of every place's box (the statement's band and boxes use it too). */
export const REACH_DEG = MAX_ESTIMATE_RADIUS_KM / KM_PER_DEGREE;

/** A place's bounding box of the radius: half-heights in degrees, the longitude's widened by the latitude (at most 180°); the statement's boxes too. */
export function boxOf(place: Place): { dlat: number; dlng: number } {
  return { dlat: REACH_DEG, dlng: Math.min(180, MAX_ESTIMATE_RADIUS_KM / (KM_PER_DEGREE * Math.max(Math.cos((place.lat * Math.PI) / 180), 0.001))) };
}

/** Inside the place's box, across the antimeridian too; the same test as the statement's. */
function inBox(place: Place, box: { dlat: number; dlng: number }, point: Place): boolean {
  const dLng = Math.abs(point.lng - place.lng);
  return point.lat >= place.lat - box.dlat && point.lat <= place.lat + box.dlat && (dLng <= box.dlng || dLng >= 360 - box.dlng);
}

const newestFirst = (a: DeliveredCandidate, b: DeliveredCandidate) => b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Each place's history from the candidates, in the places' order: the deliveries within the
 * radius, newest first (ties by id), at most MAX_SIMILAR_TASKS within the narrow radius and as
 * many beyond it; the contributors within the radius at their nearest submission, nearest first.
 */
export function nearbyHistory(places: readonly Place[], delivered: readonly DeliveredCandidate[], submissions: readonly SubmissionCandidate[]): PlaceHistory[] {
  const newest = [...delivered].sort(newestFirst);
  const rank = new Map(newest.map((d, i) => [d.id, i]));
  return places.map((place) => {
    const box = boxOf(place);
    const narrow: PastTask[] = [];
    const wide: PastTask[] = [];
    for (const d of newest) {
      if (!inBox(place, box, d)) continue;
      const distanceKm = distanceM(place, d) / 1000;
      if (distanceKm > MAX_ESTIMATE_RADIUS_KM) continue;
      const ring = distanceKm <= NARROW_KM ? narrow : wide;
      if (ring.length < MAX_SIMILAR_TASKS) ring.push({ id: d.id, hours: d.hours, distanceKm });
    }
    const tasks = [...narrow, ...wide].sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
    const nearest = new Map<string, number>();
    for (const s of submissions) {
      if (!inBox(place, box, s)) continue;
      const distanceKm = distanceM(place, s) / 1000;
      if (distanceKm <= MAX_ESTIMATE_RADIUS_KM && distanceKm < (nearest.get(s.zoomerId) ?? Infinity)) nearest.set(s.zoomerId, distanceKm);
    }
    const zoomers = [...nearest].map(([id, distanceKm]) => ({ id, distanceKm })).sort((a, b) => a.distanceKm - b.distanceKm || (a.id < b.id ? -1 : 1));
    return { tasks, zoomers };
  });
}
