// The input photos of the file benchmarks, made once per run and shared by all of them:
// generated 1600×1200 geotagged JPEGs (varied scenes, so sizes and content vary like real
// photos) written to a temp dir, plus the real camera files of the shared corpus when present
// (their EXIF layouts are the ones a synthetic file does not have).
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { makePhoto } from "@/lib/demo/make-photo";
import { CORPUS_DIR, corpusFile } from "@/lib/testing/corpus";
import type { Supervisor } from "./processes";

export interface PhotoFile {
  path: string;
  name: string;
  bytes: number;
  origin: "generated" | "corpus";
}

export interface PhotoSet {
  files: PhotoFile[];
  totalBytes: number;
  generated: { count: number; width: number; height: number; minBytes: number; maxBytes: number };
  /** Corpus files used, relative to the corpus dir; empty with a note when it is missing. */
  corpus: string[];
  corpusNote: string;
}

const WIDTH = 1600;
const HEIGHT = 1200;
// A phone's mix of devices and positions, in Florence like the benchmark mission's bounds.
const DEVICES = [
  { make: "Google", model: "Pixel 8" },
  { make: "Apple", model: "iPhone 14" },
  { make: "samsung", model: "SM-S918B" },
] as const;

function specFor(i: number) {
  const device = DEVICES[i % DEVICES.length] ?? DEVICES[0];
  return {
    width: WIDTH,
    height: HEIGHT,
    seed: 1000 + i * 7919,
    lat: 43.768 + (i % 10) * 0.0004,
    lng: 11.255 + Math.floor(i / 10) * 0.0004,
    altitudeM: 50 + i,
    accuracyM: 3 + (i % 7),
    directionDeg: (i * 37) % 360,
    capturedAt: new Date(Date.UTC(2025, 4, 12, 9, i)),
    utcOffsetMinutes: 120,
    make: device.make,
    model: device.model,
  };
}

/** The real camera files named in the brief: GPS samples and a phone's file. */
function corpusFiles(): string[] {
  if (!existsSync(CORPUS_DIR)) return [];
  const gpsDir = corpusFile("jpg/gps");
  const gps = existsSync(gpsDir)
    ? readdirSync(gpsDir)
        .filter((f) => f.toLowerCase().endsWith(".jpg"))
        .sort()
        .map((f) => `jpg/gps/${f}`)
    : [];
  const mobile = existsSync(corpusFile("jpg/mobile/jolla.jpg")) ? ["jpg/mobile/jolla.jpg"] : [];
  return [...gps, ...mobile];
}

async function generate(dir: string, count: number, log: (m: string) => void): Promise<PhotoFile[]> {
  const files: PhotoFile[] = [];
  for (let i = 0; i < count; i++) {
    const data = await makePhoto(specFor(i));
    const name = `photo-${String(i + 1).padStart(3, "0")}.jpg`;
    const path = join(dir, name);
    writeFileSync(path, data);
    files.push({ path, name, bytes: data.length, origin: "generated" });
  }
  log(`generated ${count} photos of ${WIDTH}×${HEIGHT} in ${dir}`);
  return files;
}

async function prepare(supervisor: Supervisor, count: number, log: (m: string) => void): Promise<PhotoSet> {
  const generated = await generate(supervisor.tempDir("photos"), count, log);
  const corpus = corpusFiles();
  const real = corpus.map((relative): PhotoFile => {
    const path = corpusFile(relative);
    return { path, name: basename(relative), bytes: statSync(path).size, origin: "corpus" };
  });
  const files = [...generated, ...real];
  const sizes = generated.map((f) => f.bytes);
  return {
    files,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    generated: { count, width: WIDTH, height: HEIGHT, minBytes: Math.min(...sizes), maxBytes: Math.max(...sizes) },
    corpus,
    corpusNote: corpus.length ? `from ${CORPUS_DIR}` : `corpus not found at ${CORPUS_DIR}: generated photos only`,
  };
}

/** The run's photo set, generated on first use (benchmarks that need none never pay for it). */
export function lazyPhotoSet(supervisor: Supervisor, count: number, log: (m: string) => void): () => Promise<PhotoSet> {
  let pending: Promise<PhotoSet> | undefined;
  return () => (pending ??= prepare(supervisor, count, log));
}

export function describePhotoSet(set: PhotoSet): string {
  const g = set.generated;
  const kB = (n: number) => Math.round(n / 1000);
  return (
    `${set.files.length} files, ${(set.totalBytes / 1e6).toFixed(1)} MB: ${g.count} generated ${g.width}×${g.height} ` +
    `JPEGs with GPS/EXIF (makePhoto, seeds varied; ${kB(g.minBytes)}–${kB(g.maxBytes)} kB)` +
    (set.corpus.length ? ` + ${set.corpus.length} real camera files (${set.corpus.join(", ")})` : `; ${set.corpusNote}`)
  );
}
