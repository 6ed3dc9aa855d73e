// Two sample geotagged JPEGs for the clients' quick starts (clients/*/README.md), standing in for
// a zoomer's phone: taken now at --lat/--lng, facing north (0°), with GPS accuracy and the EXIF a
// phone writes. The quick starts order a location 30 m north of that place, so the second photo
// faces it.
//
//   npx tsx scripts/make-sample-photos.ts --lat 43.7705 --lng 11.2575 --out /tmp/pm-photos
import { randomInt } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makePhoto } from "@/lib/demo/make-photo";
import { USAGE_ERROR_EXIT_CODE, parseCliArgs } from "./cli-args";

const USAGE = [
  "Usage: npx tsx scripts/make-sample-photos.ts [--lat <deg>] [--lng <deg>] [--out <dir>]",
  "",
  "Writes two geotagged sample JPEGs (mission-photo.jpg, task-photo.jpg) taken now at the place, facing north,",
  "and prints PLACE_LAT, PLACE_LNG, PHOTO_FILE and TASK_PHOTO_FILE for the clients' quick starts.",
  "",
  "  --lat <deg>   latitude (default 43.7705)",
  "  --lng <deg>   longitude (default 11.2575)",
  "  --out <dir>   where to write them (default ./sample-photos)",
  "  --help, -h    this help",
].join("\n");

export async function makeSamplePhotos(place: { lat: number; lng: number }, outDir: string): Promise<{ missionPhoto: string; taskPhoto: string }> {
  mkdirSync(outDir, { recursive: true });
  const shot = (seed: number) => makePhoto({ ...place, accuracyM: 5, directionDeg: 0, altitudeM: 50, capturedAt: new Date(), seed });
  const missionPhoto = join(outDir, "mission-photo.jpg");
  const taskPhoto = join(outDir, "task-photo.jpg");
  // A new scene each run: QA refuses a photo the organisation already has (duplicate), so a
  // second try of a quick start needs photos of its own.
  const seed = randomInt(1, 2 ** 31 - 2);
  writeFileSync(missionPhoto, await shot(seed));
  writeFileSync(taskPhoto, await shot(seed + 1));
  return { missionPhoto, taskPhoto };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const { values } = parseCliArgs(process.argv.slice(2), { usage: USAGE, strings: ["lat", "lng", "out"] });
  const lat = Number(values.lat ?? "43.7705");
  const lng = Number(values.lng ?? "11.2575");
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 85 || Math.abs(lng) > 180) {
    process.stderr.write(`Usage error: --lat and --lng must be a place on Earth.\n\n${USAGE}\n`);
    process.exit(USAGE_ERROR_EXIT_CODE);
  }
  const { missionPhoto, taskPhoto } = await makeSamplePhotos({ lat, lng }, resolve(values.out ?? "sample-photos"));
  console.log(`PLACE_LAT=${lat}\nPLACE_LNG=${lng}\nPHOTO_FILE=${missionPhoto}\nTASK_PHOTO_FILE=${taskPhoto}`);
}
