// Benchmark: how long one frame of the mission map takes at street zoom, where every submission is
// drawn as its own point — the layers the mission page draws (SUBMISSION_LAYERS, as
// SubmissionsLayer adds them) against a bare MapLibre page drawing the same points with only the
// layers any map of them needs (clusters, their counts, the points: the map-points baseline's).
// Both on the offline basemap, same canvas, camera and data; MapLibre redraws on demand and the
// time is per frame over a run of frames, so it is what every frame of a pan or zoom costs. On
// software WebGL a frame over 50 ms is a long task. With --compare-dir, another checkout's layers
// (its layer-styles.ts) join the rounds: a before/after in one run.
// Goal: the mission page's frame ≤ 1.2 × the bare page's. Reported, never a pass/fail of the tests.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LayerSpecification } from "maplibre-gl";
import { SUBMISSION_CLUSTER_OPTIONS, SUBMISSION_LAYERS, SUBMISSIONS_SOURCE_ID } from "@/components/map/layers/layer-styles";
import { MAP_FADE_DURATION_MS } from "@/components/map/map-options";
import { offlineBasemapStyle } from "@/lib/map/basemap-style";
import { BARE_SUBMISSION_LAYERS, MAPLIBRE_DIST, mapPageHtml, type BuiltWorker } from "./lib/bare-map-page";
import { launchChromium, VIEWPORT } from "./lib/browser";
import { fmt } from "./lib/file-report";
import { interleave, median, pairedRange, type Interleaved } from "./lib/interleave";
import { contentTypeOf } from "./lib/static-server";
import { startBareMapServer } from "./lib/map-pages";
import { defineBenchmark } from "./lib/benchmark";

export const GOAL = { maxRatio: 1.2 } as const;

export interface MapFrameSettings {
  rounds: number;
  warmupRounds: number;
}

/** Points in a grid of 60 columns, 4–5 m apart: at zoom 17.5 about 2,600 of them are in view, none clustered. */
const POINTS = 3000;
const ZOOM = 17.5;
const CENTER: [number, number] = [11.2515, 43.771];
/** Frames timed per page load, after the map is idle. */
const FRAMES = 40;
const CANVAS = { width: 900, height: 600 } as const;
/** MapLibre's worker straight from the package: this benchmark needs no build of the app. */
const WORKER: BuiltWorker = { path: "/maplibre-gl-worker.mjs", file: join(MAPLIBRE_DIST, "maplibre-gl-worker.mjs") };

type VariantName = "subject" | "baseline" | "reference";

interface VariantResult {
  name: VariantName;
  label: string;
  layerIds: string[];
  /** Milliseconds per frame, one value per measured page load. */
  frameMs: number[];
  medianFrameMs: number;
}

export interface MapFrameResults {
  benchmark: "map-frame";
  goal: string;
  settings: MapFrameSettings & { points: number; zoom: number; frames: number; canvas: typeof CANVAS };
  compareDir?: string;
  subject: VariantResult;
  baseline: VariantResult;
  reference?: VariantResult;
  ratio: { value: number; min: number; max: number; goal: number; meetsGoal: boolean };
  referenceRatio?: { value: number; min: number; max: number };
  /** Points MapLibre reported drawn as points (not clusters) in the subject's view. */
  pointsInView: number;
  loadAverage1m: number[];
}

const log = (message: string) => console.error(`[bench] map-frame: ${message}`);
const round1 = (n: number) => Math.round(n * 10) / 10;

function points() {
  return {
    type: "FeatureCollection",
    features: Array.from({ length: POINTS }, (_, i) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [11.25 + (i % 60) * 0.00005, 43.77 + Math.floor(i / 60) * 0.00004] },
      properties: { id: `sub_${i}`, status: (["received", "processing", "approved", "rejected"] as const)[i % 4], received_at: "2026-11-26T00:00:00.000Z" },
    })),
  };
}

// Once the map is idle, MapLibre is asked for a frame as soon as the last one was drawn, FRAMES
// times; the time per frame is the span divided by FRAMES.
const PAGE_SCRIPT = `
import * as maplibregl from "/maplibre-gl.mjs";
const config = JSON.parse(document.getElementById("config").textContent);
maplibregl.setWorkerUrl(config.workerUrl);
const map = new maplibregl.Map({ container: "map", style: config.style, center: config.center, zoom: config.zoom, fadeDuration: config.fadeDuration, attributionControl: false });
map.on("load", () => {
  map.addSource(config.sourceId, { type: "geojson", data: config.data, ...config.sourceOptions });
  for (const layer of config.layers) map.addLayer(layer);
  map.once("idle", () => {
    const pointsInView = map.queryRenderedFeatures({ layers: [config.pointsLayerId] }).length;
    let frames = 0;
    const start = performance.now();
    const next = () => {
      frames += 1;
      if (frames >= config.frames) {
        map.off("render", next);
        window.__frameResult = { frameMs: (performance.now() - start) / config.frames, pointsInView };
        return;
      }
      map.triggerRepaint();
    };
    map.on("render", next);
    map.triggerRepaint();
  });
});
`;

function pageHtml(origin: string, layers: readonly LayerSpecification[], pointsLayerId: string): string {
  const config = {
    workerUrl: `${origin}${WORKER.path}`,
    style: offlineBasemapStyle(origin),
    center: CENTER,
    zoom: ZOOM,
    fadeDuration: MAP_FADE_DURATION_MS,
    sourceId: SUBMISSIONS_SOURCE_ID,
    sourceOptions: { promoteId: "id", ...SUBMISSION_CLUSTER_OPTIONS },
    data: points(),
    layers,
    pointsLayerId,
    frames: FRAMES,
  };
  return mapPageHtml({ title: "map-frame", ...CANVAS, config, script: PAGE_SCRIPT });
}

/** A layer set with the submissions source filled in. */
function withSource(layers: readonly { id: string }[]): LayerSpecification[] {
  return layers.map((layer) => ({ ...layer, source: SUBMISSIONS_SOURCE_ID }) as LayerSpecification);
}

/** Another checkout's SUBMISSION_LAYERS (its layer-styles.ts), for a before/after in one run. */
async function referenceLayers(compareDir: string): Promise<readonly { id: string }[]> {
  const path = join(compareDir, "components/map/layers/layer-styles.ts");
  if (!existsSync(path)) throw new Error(`--compare-dir ${compareDir} has no components/map/layers/layer-styles.ts`);
  const styles = (await import(path)) as { SUBMISSION_LAYERS?: readonly { id: string }[]; [name: string]: unknown };
  if (styles.SUBMISSION_LAYERS) return styles.SUBMISSION_LAYERS;
  // Before SUBMISSION_LAYERS existed, SubmissionsLayer drew these four, in this order.
  const named = ["submissionClustersLayer", "submissionClusterCountLayer", "submissionSelectedHaloLayer", "submissionPointsLayer"].map((name) => styles[name]);
  if (named.some((layer) => typeof layer !== "object" || layer === null))
    throw new Error(`${path} exports neither SUBMISSION_LAYERS nor the four submission layers`);
  return named as { id: string }[];
}

export async function runMapFrame(options: MapFrameSettings & { compareDir?: string }): Promise<MapFrameResults> {
  const pointsLayerId = SUBMISSION_LAYERS.at(-1)?.id ?? "";
  const variants: { name: VariantName; label: string; layers: LayerSpecification[] }[] = [
    { name: "subject", label: "mission page's layers (SUBMISSION_LAYERS)", layers: withSource(SUBMISSION_LAYERS) },
    { name: "baseline", label: "bare MapLibre page's layers (clusters, counts, points)", layers: withSource(BARE_SUBMISSION_LAYERS) },
  ];
  if (options.compareDir)
    variants.push({ name: "reference", label: `layers of ${options.compareDir}`, layers: withSource(await referenceLayers(options.compareDir)) });

  const server = await startBareMapServer(WORKER);
  const browser = await launchChromium();
  let pointsInView = 0;
  let measured: Interleaved<number>;
  try {
    for (const v of variants)
      server.put(`/${v.name}.html`, { body: Buffer.from(pageHtml(server.url, v.layers, pointsLayerId)), contentType: contentTypeOf("x.html") });
    measured = await interleave({
      rounds: options.rounds,
      warmupRounds: options.warmupRounds,
      targets: variants,
      sample: async (v) => {
        const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
        try {
          const page = await context.newPage();
          await page.goto(`${server.url}/${v.name}.html`);
          await page.waitForFunction(() => "__frameResult" in window, null, { timeout: 120_000 });
          const result = await page.evaluate(() => (window as unknown as { __frameResult: { frameMs: number; pointsInView: number } }).__frameResult);
          if (v.name === "subject") pointsInView = result.pointsInView;
          return result.frameMs;
        } finally {
          await context.close();
        }
      },
      onSample: (v, turn, frameMs) =>
        log(`${turn.warmup ? "warm-up" : `round ${turn.round + 1}/${options.rounds}`} ${v.name}: ${fmt(round1(frameMs))} ms per frame`),
    });
  } finally {
    await browser.close();
    await server.close();
  }
  const { loadAverage1m } = measured;

  const summary = (name: VariantName): VariantResult => {
    const v = variants.find((candidate) => candidate.name === name);
    const frameMs = measured.of(name).map(round1);
    return { name, label: v?.label ?? name, layerIds: v?.layers.map((layer) => layer.id) ?? [], frameMs, medianFrameMs: round1(median(frameMs)) };
  };
  const subject = summary("subject");
  const baseline = summary("baseline");
  const reference = options.compareDir ? summary("reference") : undefined;
  const ratioOf = (of: VariantResult) => pairedRange(of.frameMs, baseline.frameMs);
  const ratio = ratioOf(subject);
  return {
    benchmark: "map-frame",
    goal: `mission map frame at street zoom ≤ ${GOAL.maxRatio} × the bare page's`,
    settings: { rounds: options.rounds, warmupRounds: options.warmupRounds, points: POINTS, zoom: ZOOM, frames: FRAMES, canvas: CANVAS },
    ...(options.compareDir ? { compareDir: options.compareDir } : {}),
    subject,
    baseline,
    ...(reference ? { reference, referenceRatio: ratioOf(reference) } : {}),
    ratio: { ...ratio, goal: GOAL.maxRatio, meetsGoal: ratio.value <= GOAL.maxRatio },
    pointsInView,
    loadAverage1m,
  };
}

export function mapFrameHeader(settings: MapFrameSettings): string[] {
  return [
    `- map-frame: Chromium (software WebGL), canvas ${CANVAS.width}×${CANVAS.height}, ${fmt(POINTS)} points at zoom ${ZOOM} on the offline basemap, ` +
      `${FRAMES} frames per page load; ${settings.warmupRounds} warm-up + ${settings.rounds} measured rounds, the order rotating`,
  ];
}

export function formatMapFrame(results: MapFrameResults): string {
  const rows = [results.subject, results.baseline, ...(results.reference ? [results.reference] : [])];
  const lines = [
    `### map-frame — ${results.goal}`,
    "",
    `${fmt(results.pointsInView)} points drawn as points (none clustered) in the mission page's view. Ratio = median of the per-round ratios (min–max).`,
    "",
    "| layers | ms per frame (median) | rounds | layers drawn |",
    "|---|---:|---|---|",
    ...rows.map((v) => `| ${v.label} | ${fmt(v.medianFrameMs)} | ${v.frameMs.map((ms) => fmt(ms)).join(", ")} | ${v.layerIds.join(", ")} |`),
    "",
    `Mission page ÷ bare page: **${results.ratio.value}** (${results.ratio.min}–${results.ratio.max}); goal ≤ ${results.ratio.goal}: ${results.ratio.meetsGoal ? "met" : "**not met**"}.`,
  ];
  if (results.referenceRatio)
    lines.push(`--compare-dir ÷ bare page: ${results.referenceRatio.value} (${results.referenceRatio.min}–${results.referenceRatio.max}).`);
  lines.push("", `1-min load average after each round: ${results.loadAverage1m.join(", ")}.`);
  return lines.join("\n");
}

export const benchmark = defineBenchmark({
  name: "map-frame",
  header: (options) => mapFrameHeader({ rounds: options.rounds.rounds, warmupRounds: options.rounds.warmupRounds }),
  run: ({ options }) =>
    runMapFrame({
      rounds: options.rounds.rounds,
      warmupRounds: options.rounds.warmupRounds,
      ...(options.compareDir ? { compareDir: options.compareDir } : {}),
    }),
  format: formatMapFrame,
});
