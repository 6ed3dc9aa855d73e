// A simulated field contributor: picks a spot in (or, on purpose, outside) a mission's bounds,
// makes a photo there with a plausible phone's EXIF — sometimes blurry or dark, as real ones are —
// and submits it through the field API like the phone app would.
import { bbox as turfBbox, booleanPointInPolygon, point, polygon as turfPolygon } from "@turf/turf";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { makePhoto, type PhotoSpec } from "./make-photo";

// Phones whose makers write no maker notes of their own into a JPEG: a generated photo has none,
// and the authenticity check (lib/service/verification/edit-traces.ts) rightly holds a photo that
// claims to come from an iPhone or a Fujifilm without the maker notes those always write.
export const DEVICES = [
  { make: "Google", model: "Pixel 8" },
  { make: "samsung", model: "SM-S921B" },
  { make: "Xiaomi", model: "23127PN0CG" },
  { make: "OnePlus", model: "CPH2581" },
  { make: "motorola", model: "moto g84 5G" },
] as const;

export type Flaw = "none" | "outside" | "blurry" | "dark";

export interface SimulatedPhoto {
  bytes: Buffer;
  flaw: Flaw;
  spec: PhotoSpec;
}

export function pickFlaw(random: () => number): Flaw {
  const r = random();
  if (r < 0.1) return "outside";
  if (r < 0.18) return "blurry";
  if (r < 0.24) return "dark";
  return "none";
}

function spotInside(bounds: PolygonGeometry, random: () => number): [number, number] {
  const [minLng, minLat, maxLng, maxLat] = turfBbox(turfPolygon(bounds.coordinates));
  const shape = turfPolygon(bounds.coordinates);
  for (let i = 0; i < 200; i++) {
    const candidate: [number, number] = [minLng + random() * (maxLng - minLng), minLat + random() * (maxLat - minLat)];
    if (booleanPointInPolygon(point(candidate), shape)) return candidate;
  }
  return [(minLng + maxLng) / 2, (minLat + maxLat) / 2];
}

function spotOutside(bounds: PolygonGeometry, random: () => number): [number, number] {
  const [minLng, minLat, maxLng, maxLat] = turfBbox(turfPolygon(bounds.coordinates));
  // 300–800 m beyond the box, in a random direction.
  const metres = 300 + random() * 500;
  const angle = random() * 2 * Math.PI;
  const lat = (minLat + maxLat) / 2 + (Math.sin(angle) * (metres + ((maxLat - minLat) * 111_320) / 2)) / 111_320;
  const lng = (minLng + maxLng) / 2 + (Math.cos(angle) * (metres + ((maxLng - minLng) * 80_000) / 2)) / (111_320 * Math.cos((lat * Math.PI) / 180));
  return [lng, lat];
}

/** A phone photo scaled down for the demo: 1024 × 768 with its derivatives is about 180 kB on disk. */
export const DEMO_PHOTO_SIZE = { width: 1024, height: 768 } as const;

export async function simulatePhoto(
  bounds: PolygonGeometry,
  random: () => number,
  {
    flaw = pickFlaw(random),
    capturedAt = new Date(),
    seed = Math.floor(random() * 1e9),
    size = DEMO_PHOTO_SIZE,
  }: { flaw?: Flaw; capturedAt?: Date; seed?: number; size?: { width: number; height: number } } = {},
): Promise<SimulatedPhoto> {
  const [lng, lat] = flaw === "outside" ? spotOutside(bounds, random) : spotInside(bounds, random);
  const device = DEVICES[Math.floor(random() * DEVICES.length)] ?? DEVICES[0];
  const spec: PhotoSpec = {
    lat,
    lng,
    altitudeM: 45 + random() * 30,
    accuracyM: 3 + random() * 12,
    directionDeg: random() * 360,
    capturedAt,
    utcOffsetMinutes: 60,
    make: device.make,
    model: device.model,
    width: size.width,
    height: size.height,
    seed,
    blur: flaw === "blurry" ? 5 + random() * 3 : 0,
    exposure: flaw === "dark" ? 0.08 + random() * 0.06 : 1,
  };
  return { bytes: await makePhoto(spec), flaw, spec };
}

/** The multipart body of a submission, as the phone app sends it. */
export function submissionForm(photos: { bytes: Uint8Array; name: string }[], fields: { angle?: string; note?: string } = {}): FormData {
  const form = new FormData();
  for (const p of photos) form.append("photos", new Blob([new Uint8Array(p.bytes)], { type: "image/jpeg" }), p.name);
  if (fields.angle) form.append("angle", fields.angle);
  if (fields.note) form.append("note", fields.note);
  return form;
}
