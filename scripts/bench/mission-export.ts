// Benchmark: the mission ZIP export (lib/service/export/export-mission.ts) — rows paged from the
// database, originals streamed from the store through the stored-ZIP writer (stored-zip.ts, CRC-32
// by zlib.crc32), metadata.json produced once for its size and kept (or produced again when over
// 4 MiB) — against a raw sequential read of the same files with fs streams. The archive
// is consumed fully and its length checked against the size exportMission announced.
// Memory: RSS and heap sampled every 20 ms during single exports of two mission sizes.
// Goal (issue): export throughput ≥ 0.85 × raw read, with flat memory.
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { exportMission } from "@/lib/service/export/export-mission";
import type { ServiceRuntime } from "@/lib/runtime/runtime";
import { createOwner, loadSources, openService, seedExportMission, type Owner, type SeededExport, type SourcePhoto } from "./lib/export-fixture";
import { fmt, profileSection, roundsSection } from "./lib/file-report";
import { forceGc } from "./lib/gc";
import { profilePasses, type InProcessProfile } from "./lib/in-process-profile";
import { describePhotoSet, type PhotoSet } from "./lib/photo-set";
import type { Supervisor } from "./lib/processes";
import { measureRounds, type RoundSettings, type RoundsResult, type Variant } from "./lib/rounds";
import { defineBenchmark } from "./lib/benchmark";
import { fileBenchmarksHeader } from "./lib/file-report";

// Flat memory: the writer must keep one record per file (name, size, key; then CRC and offset)
// until it writes the central directory at the end, so an export cannot be O(1); it is "flat" when
// the live heap grows by no more than 1 kB per image.
export const GOAL = { minThroughputRatio: 0.85, maxLiveHeapBytesPerImage: 1024 } as const;
const SAMPLE_MS = 20;

export interface MissionExportOptions {
  supervisor: Supervisor;
  photos: PhotoSet;
  rounds: RoundSettings;
  images: number;
  memorySizes: number[];
  profile: boolean;
  resultsDir: string;
}

export interface MemoryFigures {
  rss: number;
  heapUsed: number;
  /** Buffers outside the V8 heap (fs chunks), for reference. */
  arrayBuffers: number;
}

export interface MemoryPoint {
  images: number;
  archiveBytes: number;
  seconds: number;
  samples: number;
  before: MemoryFigures;
  /** Peak during the export minus `before`, bytes. */
  peakGrowth: MemoryFigures;
  /** Heap after a full GC halfway through a second export's bytes, minus `before`: what is kept. */
  liveHeapGrowthMidway: number;
}

/** exportMission's announced size (the HTTP Content-Length) against the bytes its stream gave. */
export interface SizeCheck {
  images: number;
  announced: number;
  streamed: number;
}

export interface MissionExportResults {
  benchmark: "mission-export";
  goal: string;
  inputs: string;
  mission: { images: number; imageBytes: number; archiveBytes: number; imagesPerSubmission: number };
  settings: RoundSettings;
  rounds: RoundsResult;
  /** One per mission size exported; a mismatch is a service bug (the body ≠ Content-Length). */
  sizeChecks: SizeCheck[];
  memory: {
    points: MemoryPoint[];
    /** Peak heap growth at the largest size / at the smallest (each floored at 1 MB). */
    peakHeapGrowthFactor: number;
    /** Extra peak heap per extra image between the smallest and largest size, bytes. */
    peakHeapBytesPerImage: number;
    /** Extra live heap (midway, after GC) per extra image: the flatness verdict's figure. */
    liveHeapBytesPerImage: number;
    flat: boolean;
    criterion: string;
  };
  profile?: InProcessProfile;
}

const log = (message: string) => console.error(`[bench] mission-export: ${message}`);

/** Counts a stream's bytes; `halfway` runs once when half of `expected` bytes have passed. */
async function countBytes(stream: Readable, halfway?: { expected: number; run: () => void }): Promise<number> {
  let bytes = 0;
  let pending = halfway;
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length;
    if (pending && bytes >= pending.expected / 2) {
      pending.run();
      pending = undefined;
    }
  }
  return bytes;
}

/**
 * Records, per mission size, the announced archive size against the bytes streamed. A mismatch is
 * reported rather than thrown: it is a finding about the service, and the run should go on.
 */
class SizeChecks {
  readonly list: SizeCheck[] = [];

  record(images: number, announced: number, streamed: number): void {
    const known = this.list.find((c) => c.images === images);
    if (!known) this.list.push({ images, announced, streamed });
    else if (known.announced !== announced || known.streamed !== streamed) throw new Error(`export of ${images} images changed size between runs`);
  }
}

/** One export, consumed to the end, its length checked against the size it announced. */
async function exportOnce(runtime: ServiceRuntime, seeded: SeededExport, checks: SizeChecks, halfway?: () => void): Promise<number> {
  const archive = await exportMission(runtime.ctx, seeded.mission);
  const bytes = await countBytes(archive.stream, halfway && { expected: archive.size, run: halfway });
  if (archive.imageCount !== seeded.keys.length) throw new Error(`export has ${archive.imageCount} images, expected ${seeded.keys.length}`);
  checks.record(seeded.keys.length, archive.size, bytes);
  return bytes;
}

async function rawRead(runtime: ServiceRuntime, seeded: SeededExport): Promise<void> {
  const { store } = runtime.ctx;
  if (!store.localPath) throw new Error("the benchmark needs the local store");
  let bytes = 0;
  for (const key of seeded.keys) bytes += await countBytes(createReadStream(store.localPath(key)));
  if (bytes !== seeded.imageBytes) throw new Error(`raw read ${bytes} bytes, expected ${seeded.imageBytes}`);
}

function variants(runtime: ServiceRuntime, seeded: SeededExport, checks: SizeChecks): Variant[] {
  return [
    { name: "raw-read", label: "baseline: fs.createReadStream of each original, sequential, discarded", pass: () => rawRead(runtime, seeded) },
    {
      name: "export",
      label: "exportMission → ZIP stream consumed (byte count = announced size)",
      pass: async () => void (await exportOnce(runtime, seeded, checks)),
    },
  ];
}

function memoryNow(): MemoryFigures {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers };
}

/** Samples memory every 20 ms while `work` runs; returns the peak of each figure. */
async function sampledPeak(work: () => Promise<number>): Promise<{ peak: MemoryFigures; samples: number; result: number }> {
  const peak = memoryNow();
  let samples = 1;
  const take = () => {
    const now = memoryNow();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    samples++;
  };
  const timer = setInterval(take, SAMPLE_MS);
  try {
    const result = await work();
    take();
    return { peak, samples, result };
  } finally {
    clearInterval(timer);
  }
}

interface Fixture {
  runtime: ServiceRuntime;
  owner: Owner;
  sources: SourcePhoto[];
  checks: SizeChecks;
}

async function memoryPoint({ runtime, owner, sources, checks }: Fixture, images: number): Promise<MemoryPoint> {
  const seeded = await seedExportMission(runtime, owner, sources, images);
  await exportOnce(runtime, seeded, checks); // warm: first-use allocations are not what grows with N
  forceGc();
  const before = memoryNow();
  const started = performance.now();
  const { peak, samples, result } = await sampledPeak(() => exportOnce(runtime, seeded, checks));
  const seconds = Math.round(performance.now() - started) / 1000;
  let liveMidway = 0;
  forceGc();
  const beforeSecond = process.memoryUsage().heapUsed;
  await exportOnce(runtime, seeded, checks, () => {
    forceGc();
    liveMidway = process.memoryUsage().heapUsed - beforeSecond;
  });
  log(`memory at ${images} images: peak heap +${fmt((peak.heapUsed - before.heapUsed) / 1e6, 1)} MB, live midway +${fmt(liveMidway / 1e6, 1)} MB`);
  return {
    images,
    archiveBytes: result,
    seconds,
    samples,
    before,
    peakGrowth: { rss: peak.rss - before.rss, heapUsed: peak.heapUsed - before.heapUsed, arrayBuffers: peak.arrayBuffers - before.arrayBuffers },
    liveHeapGrowthMidway: liveMidway,
  };
}

async function measureMemory(fixture: Fixture, sizes: number[]): Promise<MissionExportResults["memory"]> {
  const points: MemoryPoint[] = [];
  // Smallest first: RSS rarely shrinks, so a large export first would hide a small one's growth.
  for (const size of sizes) points.push(await memoryPoint(fixture, size));
  const small = points[0];
  const large = points.at(-1);
  if (!small || !large || large.images <= small.images) throw new Error("the memory check needs two different sizes");
  const floor = 1e6; // below 1 MB the growth is noise from the sampler itself
  const slope = (pick: (p: MemoryPoint) => number) => Math.round((pick(large) - pick(small)) / (large.images - small.images));
  const live = slope((p) => p.liveHeapGrowthMidway);
  return {
    points,
    peakHeapGrowthFactor: Math.round((Math.max(large.peakGrowth.heapUsed, floor) / Math.max(small.peakGrowth.heapUsed, floor)) * 100) / 100,
    peakHeapBytesPerImage: slope((p) => p.peakGrowth.heapUsed),
    liveHeapBytesPerImage: live,
    flat: live <= GOAL.maxLiveHeapBytesPerImage,
    criterion:
      `flat = live heap midway through the export (after a full GC) grows by ≤ ${fmt(GOAL.maxLiveHeapBytesPerImage)} bytes per extra image between ${fmt(small.images)} and ${fmt(large.images)} images ` +
      "(one record per entry is kept until the central directory is written)",
  };
}

async function measure(runtime: ServiceRuntime, options: MissionExportOptions): Promise<MissionExportResults> {
  const fixture: Fixture = { runtime, owner: await createOwner(runtime), sources: await loadSources(options.photos.files), checks: new SizeChecks() };
  log(`seeding ${options.images} images`);
  const seeded = await seedExportMission(runtime, fixture.owner, fixture.sources, options.images);
  const archiveBytes = await exportOnce(runtime, seeded, fixture.checks);
  const rounds = await measureRounds(variants(runtime, seeded, fixture.checks), { bytes: seeded.imageBytes, files: seeded.keys.length }, options.rounds, log, {
    min: GOAL.minThroughputRatio,
  });
  const profile = await profilePasses(options.profile, options.resultsDir, "mission-export", rounds.passesPerRound, async () => {
    await exportOnce(runtime, seeded, fixture.checks);
  });
  const memory = await measureMemory(fixture, options.memorySizes);
  return {
    benchmark: "mission-export",
    goal: `export throughput ≥ ${GOAL.minThroughputRatio} × raw read of the same files, with flat memory`,
    inputs: describePhotoSet(options.photos),
    mission: { images: seeded.keys.length, imageBytes: seeded.imageBytes, archiveBytes, imagesPerSubmission: 2 },
    settings: options.rounds,
    rounds,
    sizeChecks: fixture.checks.list,
    memory,
    ...(profile ? { profile } : {}),
  };
}

export async function runMissionExport(options: MissionExportOptions): Promise<MissionExportResults> {
  const root = options.supervisor.tempDir("mission-export");
  try {
    const runtime = await openService(root);
    try {
      return await measure(runtime, options);
    } finally {
      await runtime.stop();
    }
  } finally {
    options.supervisor.removeTempDir(root);
  }
}

// ---- report ---------------------------------------------------------------------------------

const mb = (bytes: number) => fmt(bytes / 1e6, 1);

function memoryTable(memory: MissionExportResults["memory"]): string[] {
  const at100k = (bytesPerImage: number) => `${fmt((bytesPerImage * 100_000) / 1e6, 0)} MB at 100,000 images`;
  return [
    `| images | archive MB | export s | samples | RSS before MB | peak RSS growth MB | heap before MB | peak heap growth MB | peak ArrayBuffer growth MB | live heap growth midway MB |`,
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...memory.points.map(
      (p) =>
        `| ${fmt(p.images)} | ${mb(p.archiveBytes)} | ${fmt(p.seconds, 2)} | ${p.samples} | ${mb(p.before.rss)} | ${mb(p.peakGrowth.rss)} | ${mb(p.before.heapUsed)} | ${mb(p.peakGrowth.heapUsed)} | ${mb(p.peakGrowth.arrayBuffers)} | ${mb(p.liveHeapGrowthMidway)} |`,
    ),
    "",
    `Memory: live heap ${fmt(memory.liveHeapBytesPerImage)} bytes per extra image (${at100k(memory.liveHeapBytesPerImage)}) → ` +
      `${memory.flat ? "**flat** (meets goal)" : "**not flat** (below goal)"}; ${memory.criterion}. ` +
      `Peak heap: ×${fmt(memory.peakHeapGrowthFactor, 2)} from the smallest to the largest size, ${fmt(memory.peakHeapBytesPerImage)} bytes per extra image (${at100k(memory.peakHeapBytesPerImage)}). ` +
      `Each size: one warm export; a full GC, then one export sampled every ${SAMPLE_MS} ms (process.memoryUsage, and once at the end) for the peaks; ` +
      "a full GC, then one more export with a full GC when half its bytes have passed, for the live heap.",
  ];
}

function sizeCheckLine(checks: SizeCheck[]): string {
  const parts = checks.map((c) =>
    c.announced === c.streamed
      ? `${fmt(c.images)} images: equal (${fmt(c.streamed)} bytes)`
      : `${fmt(c.images)} images: **announced ${fmt(c.announced)}, streamed ${fmt(c.streamed)} (${fmt(c.announced - c.streamed)} bytes short: Content-Length would exceed the body)**`,
  );
  return `Announced size (Content-Length) vs bytes streamed: ${parts.join("; ")}.`;
}

export function formatMissionExport(results: MissionExportResults): string {
  const m = results.mission;
  return [
    "### mission-export: exportMission ZIP stream vs raw read of the same files",
    "",
    `Goal (issue): ${results.goal}.`,
    "",
    `Inputs: ${results.inputs}; repeated under fresh keys into a mission of ${fmt(m.images)} images (${m.imagesPerSubmission} per submission, ` +
      `${mb(m.imageBytes)} MB of originals, archive ${mb(m.archiveBytes)} MB), rows inserted with drizzle into in-memory PGlite, files put with store.putBuffer. ` +
      "MB/s and files/s count the originals' bytes and images for both variants (same work).",
    "",
    ...roundsSection(results.settings, results.rounds),
    "",
    ...memoryTable(results.memory),
    "",
    sizeCheckLine(results.sizeChecks),
    ...profileSection("Profile of the export subject", results.profile),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "mission-export",
  header: fileBenchmarksHeader,
  run: async ({ supervisor, options, resultsDir, photos }) =>
    runMissionExport({
      supervisor,
      resultsDir,
      photos: await photos(),
      rounds: options.rounds,
      images: options.inputs.exportImages,
      memorySizes: options.inputs.memorySizes,
      profile: options.profile,
    }),
  format: formatMissionExport,
});
