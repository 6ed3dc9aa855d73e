// Benchmark: time until a mission's submissions are drawn on its map — the mission page
// (`next start`, signed in, /missions/{id}) against a bare MapLibre page drawing the same GeoJSON
// bytes with the same basemap, first camera, cluster options and layers, in the same run, page
// loads interleaved. Both pages set the same User Timing mark at the first `idle` after the
// points were handed to the map; the time is the mark's, from navigation start.
// Goal (issue): mission page ≤ 1.2 × the bare page, at 10,000 and 100,000 submissions; ≤ 1.5 ×
// at 1,000,000.
// Reported, never turned into a pass/fail of the test suite.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser } from "@playwright/test";
import { barePageHtml, builtMaplibreWorker, MAPLIBRE_WORKER_NAME, POINTS_DRAWN_MARK } from "./lib/bare-map-page";
import { formatTraceSummary, type TraceSummary } from "./lib/browser-trace";
import { launchChromium, signIn, VIEWPORT, type StorageState } from "./lib/browser";
import { seedDashboard, type SeededMission } from "./lib/dashboard-fixture";
import { fmt } from "./lib/file-report";
import { captureMissionPoints, loadMapPage, startBareMapServer, traceMapPage, type MapPage } from "./lib/map-pages";
import { describeBuild, ensureNextBuild, type BuildMode, type BuildOutcome } from "./lib/next-build";
import type { PageSample } from "./lib/page-probe";
import type { Supervisor } from "./lib/processes";
import { interleave, median, pairedRange, round3 } from "./lib/interleave";
import { contentTypeOf } from "./lib/static-server";
import { checkCompareBuild, startNextWithReference } from "./lib/targets";
import { defineBenchmark } from "./lib/benchmark";
import type { RunOptions } from "./lib/cli";

export const GOAL = { maxRatio: 1.2, maxRatioAtMillion: 1.5 } as const;

/** The goal for a size: looser for a million points. */
const goalFor = (submissions: number): number => (submissions >= 1_000_000 ? GOAL.maxRatioAtMillion : GOAL.maxRatio);

export interface MapPointsSettings {
  sizes: number[];
  rounds: number;
  warmupRounds: number;
}

export interface MapPointsOptions extends MapPointsSettings {
  supervisor: Supervisor;
  /**
   * Another checkout's production build (e.g. main) whose mission page joins the rounds as a
   * third page, on a copy of the same database: a before/after in one run.
   */
  compareDir?: string;
  build: BuildMode;
  resultsDir: string;
  /** Also trace one load of each page at the largest size (not in the figures). */
  profile: boolean;
}

type VariantName = "subject" | "baseline" | "reference";

const LABELS: Record<VariantName, string> = {
  subject: "mission page (next start, /missions/{id})",
  baseline: "bare MapLibre page (same bytes, style, camera, clusters, layers)",
  reference: "mission page of --compare-dir (same database, same bare page)",
};

/** Medians over the measured loads, in ms from navigation start (bytes for sizes). */
export interface VariantSummary {
  name: VariantName;
  label: string;
  url: string;
  drawnMs: number[];
  medianDrawnMs: number;
  median: {
    documentFirstByteMs: number | null;
    domContentLoadedMs: number | null;
    pointsRequestedMs: number | null;
    pointsFirstByteMs: number | null;
    /** pointsFirstByte − pointsRequested: the server's time to answer (and queueing). */
    pointsWaitMs: number | null;
    pointsReceivedMs: number | null;
    workerRequestedMs: number | null;
    /** The map's canvas appeared: MapLibre's Map was constructed. */
    canvasCreatedMs: number | null;
    /** MapLibre's `load` (style and basemap drawn), as data-map-state="ready" shows it. */
    mapReadyMs: number | null;
    /** drawn − the later of map ready and points received: hand-over, clustering, drawing. */
    lastStepMs: number | null;
    longTaskMs: number;
    pointsTransferBytes: number | null;
  };
  samples: PageSample[];
}

export interface SizeResult {
  submissions: number;
  missionId: string;
  json: { rawBytes: number; gzipBytes: number; contentType: string };
  subject: VariantSummary;
  baseline: VariantSummary;
  reference?: VariantSummary;
  /** subject ÷ baseline time: median of the per-round ratios (min–max), and of the medians. */
  ratio: { value: number; min: number; max: number; ofMedians: number; goal: number; meetsGoal: boolean };
  /** reference ÷ baseline, the same way (with --compare-dir). */
  referenceRatio?: { value: number; min: number; max: number; ofMedians: number };
  loadAverage1m: number[];
}

export interface MapPointsResults {
  benchmark: "map-points";
  goal: string;
  settings: MapPointsSettings;
  nextBuild: BuildOutcome;
  compareDir?: string;
  browser?: { version: string; viewport: typeof VIEWPORT; canvas: { width: number; height: number } };
  sizes: SizeResult[];
  profiles?: { submissions: number; subject: TraceSummary; baseline: TraceSummary };
  notRun?: string;
}

const log = (message: string) => console.error(`[bench] map-points: ${message}`);
const round1 = (n: number) => Math.round(n * 10) / 10;

function medianOf(samples: PageSample[], pick: (s: PageSample) => number | null): number | null {
  const values = samples.map(pick).filter((v): v is number => v !== null && Number.isFinite(v));
  return values.length ? round1(median(values)) : null;
}

function summarise(name: VariantName, url: string, samples: PageSample[]): VariantSummary {
  const drawnMs = samples.map((s) => round1(s.drawnMs));
  return {
    name,
    label: LABELS[name],
    url,
    drawnMs,
    medianDrawnMs: round1(median(drawnMs)),
    median: {
      documentFirstByteMs: medianOf(samples, (s) => s.documentFirstByteMs),
      domContentLoadedMs: medianOf(samples, (s) => s.domContentLoadedMs),
      pointsRequestedMs: medianOf(samples, (s) => s.pointsRequestedMs),
      pointsFirstByteMs: medianOf(samples, (s) => s.pointsFirstByteMs),
      pointsWaitMs: medianOf(samples, (s) => (s.pointsFirstByteMs !== null && s.pointsRequestedMs !== null ? s.pointsFirstByteMs - s.pointsRequestedMs : null)),
      pointsReceivedMs: medianOf(samples, (s) => s.pointsReceivedMs),
      workerRequestedMs: medianOf(samples, (s) => s.workerRequestedMs),
      canvasCreatedMs: medianOf(samples, (s) => s.canvasCreatedMs),
      mapReadyMs: medianOf(samples, (s) => s.mapReadyMs),
      lastStepMs: medianOf(samples, (s) =>
        s.pointsReceivedMs !== null && s.mapReadyMs !== null ? s.drawnMs - Math.max(s.pointsReceivedMs, s.mapReadyMs) : null,
      ),
      longTaskMs: medianOf(samples, (s) => s.longTaskMs) ?? 0,
      pointsTransferBytes: medianOf(samples, (s) => s.pointsTransferBytes),
    },
    samples,
  };
}

interface Variant extends MapPage {
  name: VariantName;
}

type Variants = { subject: Variant; baseline: Variant; reference?: Variant };

async function measureSize(
  browser: Browser,
  variants: Variants,
  settings: MapPointsSettings,
): Promise<{ samples: Record<VariantName, PageSample[]>; loadAverage1m: number[] }> {
  const n = variants.subject.target.count;
  const result = await interleave({
    rounds: settings.rounds,
    warmupRounds: settings.warmupRounds,
    targets: [variants.subject, variants.baseline, ...(variants.reference ? [variants.reference] : [])],
    sample: (variant) => loadMapPage(browser, variant),
    onSample: (variant, turn, s) =>
      log(
        turn.warmup
          ? `${fmt(n)} warm-up ${variant.name}: ${fmt(s.drawnMs)} ms`
          : `${fmt(n)} round ${turn.round + 1}/${settings.rounds} ${variant.name}: ${fmt(s.drawnMs)} ms (points asked ${fmt(s.pointsRequestedMs ?? NaN)}, received ${fmt(s.pointsReceivedMs ?? NaN)})`,
      ),
  });
  const samples = { subject: result.of("subject"), baseline: result.of("baseline"), reference: result.of("reference") };
  return { samples, loadAverage1m: result.loadAverage1m };
}

/** time ÷ the bare page's time per round, as a spread, and the ratio of the medians. */
function ratioOf(samples: PageSample[], baseSamples: PageSample[], variant: VariantSummary, base: VariantSummary) {
  const drawn = (list: PageSample[]) => list.map((s) => s.drawnMs);
  return { ...pairedRange(drawn(samples), drawn(baseSamples)), ofMedians: round3(variant.medianDrawnMs / base.medianDrawnMs) };
}

export async function runMapPoints(options: MapPointsOptions): Promise<MapPointsResults> {
  const { supervisor, sizes, rounds, warmupRounds } = options;
  const settings = { sizes, rounds, warmupRounds };
  const goal = `mission page time to points drawn ≤ ${GOAL.maxRatio} × the bare MapLibre page's (≤ ${GOAL.maxRatioAtMillion} × at 1,000,000 points)`;
  const nextBuild = await ensureNextBuild(supervisor, options.build);
  if (!nextBuild.usable) return { benchmark: "map-points", goal, settings, nextBuild, sizes: [], notRun: nextBuild.reason };

  const { compareDir } = options;
  checkCompareBuild(compareDir);

  const dataDir = supervisor.tempDir("map-points-data");
  const seeded = await seedDashboard(dataDir, sizes, log);
  const { app, reference } = await startNextWithReference(supervisor, dataDir, compareDir, "map-points-reference-data");
  log(`next start on ${app.url}`);
  if (reference) log(`--compare-dir ${compareDir}: next start on ${reference.url}`);
  const browser = await launchChromium();
  const worker = builtMaplibreWorker();
  const baseline = await startBareMapServer(worker);
  try {
    const storage = await signIn(browser, app.url, seeded.user);
    const referenceStorage = reference ? await signIn(browser, reference.url, seeded.user) : undefined;
    const pageOf = (name: "subject" | "reference", origin: string, pageStorage: StorageState | undefined, mission: SeededMission): Variant => ({
      name,
      url: `${origin}/missions/${mission.id}`,
      ...(pageStorage ? { storage: pageStorage } : {}),
      target: { mark: POINTS_DRAWN_MARK, count: mission.submissions, pointsPart: "/submission-points", workerPart: MAPLIBRE_WORKER_NAME },
    });
    const subjectOf = (mission: SeededMission): Variant => pageOf("subject", app.url, storage, mission);
    // A first visit that is not measured: Next loads the route's modules on first request, and it
    // tells the size of the map's canvas, which the bare page copies.
    const first = seeded.missions[0];
    if (!first) throw new Error("no mission seeded");
    const probe = await loadMapPage(browser, subjectOf(first));
    if (!probe.canvas) throw new Error("the mission page has no .maplibregl-canvas");
    const workerPath = probe.workerUrl ? new URL(probe.workerUrl).pathname : null;
    if (workerPath !== worker.path)
      throw new Error(`the mission page loaded its worker from ${probe.workerUrl ?? "nowhere seen"}, the bare page from ${worker.path}`);
    log(
      `mission page map canvas ${probe.canvas.width} × ${probe.canvas.height} at devicePixelRatio ${probe.devicePixelRatio}; first visit ${fmt(probe.drawnMs)} ms`,
    );

    const results: SizeResult[] = [];
    let largest: Variants | undefined;
    for (const mission of seeded.missions) {
      const n = mission.submissions;
      const captured = await captureMissionPoints(browser, storage, app.url, mission);
      const pointsPath = `/points-${n}.json`;
      baseline.put(pointsPath, { body: captured.body, contentType: captured.contentType });
      baseline.put(`/bare-${n}.html`, {
        body: Buffer.from(barePageHtml({ origin: baseline.url, workerPath: worker.path, pointsPath, bbox: mission.bbox, ...probe.canvas })),
        contentType: contentTypeOf("bare.html"),
      });
      const variants: Variants = {
        ...(reference ? { reference: pageOf("reference", reference.url, referenceStorage, mission) } : {}),
        subject: subjectOf(mission),
        baseline: {
          name: "baseline",
          url: `${baseline.url}/bare-${n}.html`,
          target: { mark: POINTS_DRAWN_MARK, count: n, pointsPart: pointsPath, workerPart: MAPLIBRE_WORKER_NAME },
        },
      };
      largest = variants;
      const { samples, loadAverage1m } = await measureSize(browser, variants, settings);
      const subject = summarise("subject", variants.subject.url, samples.subject);
      const base = summarise("baseline", variants.baseline.url, samples.baseline);
      const ratio = ratioOf(samples.subject, samples.baseline, subject, base);
      const referenceSummary = variants.reference ? summarise("reference", variants.reference.url, samples.reference) : undefined;
      results.push({
        submissions: n,
        missionId: mission.id,
        json: { rawBytes: captured.body.length, gzipBytes: gzipSync(captured.body, { level: 6 }).length, contentType: captured.contentType },
        subject,
        baseline: base,
        ratio: { ...ratio, goal: goalFor(n), meetsGoal: ratio.value <= goalFor(n) },
        ...(referenceSummary ? { reference: referenceSummary, referenceRatio: ratioOf(samples.reference, samples.baseline, referenceSummary, base) } : {}),
        loadAverage1m,
      });
    }
    let profiles: MapPointsResults["profiles"];
    if (options.profile && largest) {
      const dir = join(options.resultsDir, "profiles");
      mkdirSync(dir, { recursive: true });
      const n = largest.subject.target.count;
      log(`tracing one load of each page at ${fmt(n)} submissions`);
      const subject = await traceMapPage(browser, largest.subject, join(dir, `map-points-subject-${n}.trace.json`));
      const base = await traceMapPage(browser, largest.baseline, join(dir, `map-points-baseline-${n}.trace.json`));
      profiles = { submissions: n, subject, baseline: base };
    }
    return {
      benchmark: "map-points",
      goal,
      settings,
      nextBuild,
      ...(compareDir ? { compareDir } : {}),
      browser: { version: browser.version(), viewport: VIEWPORT, canvas: probe.canvas },
      sizes: results,
      ...(profiles ? { profiles } : {}),
    };
  } finally {
    await browser.close();
    await baseline.close();
    await app.process.stop();
    await reference?.process.stop();
  }
}

// ---- report ---------------------------------------------------------------------------------

const ms = (value: number | null) => (value === null ? "–" : fmt(value));
const mb = (bytes: number | null) => (bytes === null ? "–" : `${fmt(bytes / 1e6, 2)} MB`);

export function mapPointsHeader(settings: MapPointsSettings): string[] {
  return [
    `- map-points: Chromium (${VIEWPORT.width}×${VIEWPORT.height}, software WebGL), each load a first visit in a fresh context; ` +
      `${settings.warmupRounds} warm-up + ${settings.rounds} measured rounds per size (${settings.sizes.map((n) => fmt(n)).join(", ")} submissions), ` +
      "each round the mission page and the bare MapLibre page, who goes first alternating",
  ];
}

export function formatMapPoints(results: MapPointsResults): string {
  const lines = [`### map-points — ${results.goal}`, ""];
  lines.push(describeBuild(results.nextBuild));
  if (results.notRun) return [...lines, "", `Not run: ${results.notRun}`].join("\n");
  const b = results.browser;
  if (b)
    lines.push(
      `Chromium ${b.version}, viewport ${b.viewport.width}×${b.viewport.height}, map canvas ${b.canvas.width}×${b.canvas.height} on both pages. ` +
        "Time = the points-drawn mark (first `idle` after the points were given to the map), from navigation start; medians of the measured rounds. " +
        "Ratio = median of the per-round ratios (min–max), and the ratio of the medians.",
    );
  lines.push(
    "",
    "| submissions | mission page ms | bare MapLibre ms | ratio (min–max) | ratio of medians | goal | |",
    "|---:|---:|---:|---|---:|---|---|",
    ...results.sizes.map(
      (s) =>
        `| ${fmt(s.submissions)} | ${fmt(s.subject.medianDrawnMs)} | ${fmt(s.baseline.medianDrawnMs)} | **${fmt(s.ratio.value, 2)}** (${fmt(s.ratio.min, 2)}–${fmt(s.ratio.max, 2)}) | ${fmt(s.ratio.ofMedians, 2)} | ≤ ${s.ratio.goal} | ${s.ratio.meetsGoal ? "meets goal" : "**misses goal**"} |`,
    ),
    ...(results.compareDir
      ? [
          "",
          `The same rounds with the mission page of \`${results.compareDir}\` (--compare-dir) as a third page:`,
          "",
          "| submissions | --compare-dir page ms | bare MapLibre ms | its ratio (min–max) | ratio of medians | this tree's ratio |",
          "|---:|---:|---:|---|---:|---:|",
          ...results.sizes.flatMap((s) =>
            s.reference && s.referenceRatio
              ? [
                  `| ${fmt(s.submissions)} | ${fmt(s.reference.medianDrawnMs)} | ${fmt(s.baseline.medianDrawnMs)} | **${fmt(s.referenceRatio.value, 2)}** (${fmt(s.referenceRatio.min, 2)}–${fmt(s.referenceRatio.max, 2)}) | ${fmt(s.referenceRatio.ofMedians, 2)} | ${fmt(s.ratio.value, 2)} |`,
                ]
              : [],
          ),
        ]
      : []),
    "",
    "Where the time goes (medians, ms from navigation start unless said otherwise):",
    "",
    "| submissions | page | document first byte | DOMContentLoaded | points asked | points wait (server) | points received | map created | map loaded (style, basemap) | drawn | drawn − later of loaded/received | main-thread long tasks | points transfer |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const s of results.sizes) {
    for (const v of [s.subject, s.baseline, ...(s.reference ? [s.reference] : [])]) {
      const m = v.median;
      lines.push(
        `| ${fmt(s.submissions)} | ${{ subject: "mission page", baseline: "bare", reference: "--compare-dir page" }[v.name]} | ${ms(m.documentFirstByteMs)} | ${ms(m.domContentLoadedMs)} | ${ms(m.pointsRequestedMs)} | ${ms(m.pointsWaitMs)} | ${ms(m.pointsReceivedMs)} | ${ms(m.canvasCreatedMs)} | ${ms(m.mapReadyMs)} | ${ms(v.medianDrawnMs)} | ${ms(m.lastStepMs)} | ${ms(m.longTaskMs)} | ${mb(m.pointsTransferBytes)} |`,
      );
    }
  }
  lines.push(
    "",
    "| submissions | points JSON | gzip -6 | per point | 1-min load average after each round |",
    "|---:|---:|---:|---:|---|",
    ...results.sizes.map(
      (s) =>
        `| ${fmt(s.submissions)} | ${mb(s.json.rawBytes)} | ${mb(s.json.gzipBytes)} | ${fmt(s.json.rawBytes / s.submissions)} B | ${s.loadAverage1m.map((l) => fmt(l, 2)).join(", ")} |`,
    ),
  );
  if (results.profiles) lines.push(...profileSection(results.profiles));
  return lines.join("\n");
}

function profileSection(profiles: NonNullable<MapPointsResults["profiles"]>): string[] {
  const lines = ["", `#### Profile: one traced load of each page at ${fmt(profiles.submissions)} submissions (Chrome trace; not in the figures above)`];
  for (const [title, p] of [
    ["mission page", profiles.subject],
    ["bare MapLibre page", profiles.baseline],
  ] as const) {
    lines.push("", ...formatTraceSummary(title, p));
  }
  return lines;
}

function settingsFrom(options: RunOptions): MapPointsSettings {
  return { sizes: options.inputs.mapSizes, rounds: options.rounds.rounds, warmupRounds: options.rounds.warmupRounds };
}

export const benchmark = defineBenchmark({
  name: "map-points",
  header: (options) => mapPointsHeader(settingsFrom(options)),
  run: ({ supervisor, options, resultsDir }) =>
    runMapPoints({
      supervisor,
      resultsDir,
      build: options.build,
      profile: options.profile,
      ...(options.compareDir ? { compareDir: options.compareDir } : {}),
      ...settingsFrom(options),
    }),
  format: formatMapPoints,
});
