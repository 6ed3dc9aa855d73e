// Report: Lighthouse (desktop preset) on the mission page, signed in, against the bare MapLibre
// page of map-points drawing the same points (the ceiling a map page reaches on this machine),
// in the same run, runs interleaved (who goes first alternates). Chromium is Debian's, started
// here for each run with its own empty profile (every run a first visit), the session cookie sent
// as a header.
// Goal (issue): Performance ≥ 90 on the mission page. Reported, never a pass/fail of the tests.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import lighthouse, { desktopConfig, type Flags, type Result } from "lighthouse";
import sharp from "sharp";
import { barePageHtml, builtMaplibreWorker } from "./lib/bare-map-page";
import { CHROMIUM, launchChromium, signIn, startDebuggableChromium, type StorageState } from "./lib/browser";
import { seedDashboard } from "./lib/dashboard-fixture";
import { fmt } from "./lib/file-report";
import { describeBuild, ensureNextBuild, type BuildMode, type BuildOutcome } from "./lib/next-build";
import type { Supervisor } from "./lib/processes";
import { interleave, median } from "./lib/interleave";
import { contentTypeOf } from "./lib/static-server";
import { checkCompareBuild, ROOT, startNextWithReference } from "./lib/targets";
import { captureMissionPoints, measureMissionMapSize, startBareMapServer } from "./lib/map-pages";
import { defineBenchmark } from "./lib/benchmark";
import type { RunOptions } from "./lib/cli";

export const GOAL = { minPerformance: 90 } as const;
/** Lighthouse's desktop preset emulates this screen (constants.screenEmulationMetrics.desktop). */
const DESKTOP = { width: 1350, height: 940 } as const;
/** As the issue's runs: Debian's Chromium, headless, no GPU (WebGL through SwiftShader, allowed explicitly). */
export const LIGHTHOUSE_CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const METRICS = {
  fcpMs: "first-contentful-paint",
  lcpMs: "largest-contentful-paint",
  tbtMs: "total-blocking-time",
  speedIndexMs: "speed-index",
  cls: "cumulative-layout-shift",
} as const;
type MetricName = keyof typeof METRICS;

export interface LighthouseSettings {
  submissions: number;
  rounds: number;
  warmupRounds: number;
}

export interface LighthouseOptions extends LighthouseSettings {
  supervisor: Supervisor;
  /** Another checkout's production build (e.g. main): its mission page joins the rounds, on a copy of the same database. */
  compareDir?: string;
  build: BuildMode;
  resultsDir: string;
}

type VariantName = "subject" | "baseline" | "reference";

interface RunSample {
  performance: number;
  metrics: Record<MetricName, number>;
  /** Main-thread time by category (Lighthouse's mainthread-work-breakdown), ms. */
  mainThread: Record<string, number>;
  /** Script evaluation + parse per URL (bootup-time), ms, largest first. */
  bootup: { url: string; scriptingMs: number; parseMs: number }[];
  /** The main thread's long tasks (Lighthouse's long-tasks), what Total Blocking Time is made of: each counts beyond 50 ms. */
  longTasks: { url: string; startMs: number; durationMs: number }[];
  /** Whether the map was drawn when Lighthouse stopped (the final screenshot is kept). */
  finalScreenshot: string | null;
}

interface VariantSummary {
  name: VariantName;
  label: string;
  url: string;
  performance: { median: number; min: number; max: number; all: number[] };
  metrics: Record<MetricName, { median: number; min: number; max: number }>;
  samples: RunSample[];
}

export interface LighthouseResults {
  benchmark: "lighthouse-mission";
  goal: string;
  settings: LighthouseSettings;
  nextBuild: BuildOutcome;
  lighthouse: { version: string; chromium: string; args: string[] };
  subject?: VariantSummary;
  baseline?: VariantSummary;
  reference?: VariantSummary;
  compareDir?: string;
  meetsGoal?: boolean;
  loadAverage1m: number[];
  screenshots: string[];
  notRun?: string;
}

const log = (message: string) => console.error(`[bench] lighthouse-mission: ${message}`);

function cookieHeader(storage: StorageState, origin: string): string {
  const host = new URL(origin).hostname;
  return storage.cookies
    .filter((c) => c.domain.replace(/^\./, "") === host)
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
}

function numeric(lhr: Result, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== "number") throw new Error(`Lighthouse gave no ${id} (${lhr.runtimeError?.message ?? "no runtime error"})`);
  return value;
}

function detailItems(lhr: Result, id: string): Record<string, unknown>[] {
  const details = lhr.audits[id]?.details;
  return details && "items" in details && Array.isArray(details.items) ? (details.items as Record<string, unknown>[]) : [];
}

/** Lighthouse's runtime errors that a second run usually does not repeat (trace or paint not recorded). */
const RETRIED_ERRORS = new Set(["NO_NAVSTART", "NO_FCP", "NO_LCP", "NO_TRACING_STARTED"]);
const ATTEMPTS = 3;

/** One Lighthouse run; one that ends in a recording error is run again (and logged), up to ATTEMPTS times. */
async function runOnceRetried(supervisor: Supervisor, url: string, cookie: string | null, screenshotPath: string | null): Promise<RunSample> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(supervisor, url, cookie, screenshotPath);
    } catch (error) {
      const code = error instanceof LighthouseRuntimeError ? error.code : null;
      if (!code || !RETRIED_ERRORS.has(code) || attempt >= ATTEMPTS) throw error;
      log(`${url}: ${code}, running again (${attempt}/${ATTEMPTS - 1})`);
    }
  }
}

class LighthouseRuntimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`Lighthouse: ${code}: ${message}`);
  }
}

async function runOnce(supervisor: Supervisor, url: string, cookie: string | null, screenshotPath: string | null): Promise<RunSample> {
  const chrome = await startDebuggableChromium(supervisor, LIGHTHOUSE_CHROMIUM_ARGS);
  try {
    const flags: Flags = {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    };
    const result = await lighthouse(url, flags, desktopConfig);
    if (!result) throw new Error("Lighthouse returned nothing");
    const { lhr } = result;
    if (lhr.runtimeError) throw new LighthouseRuntimeError(lhr.runtimeError.code, lhr.runtimeError.message);
    if (lhr.finalDisplayedUrl !== url) throw new Error(`Lighthouse ended at ${lhr.finalDisplayedUrl}, not ${url} (signed out?)`);
    const score = lhr.categories.performance?.score;
    if (typeof score !== "number") throw new Error("Lighthouse gave no performance score");
    const metrics = Object.fromEntries(Object.entries(METRICS).map(([name, id]) => [name, numeric(lhr, id)])) as Record<MetricName, number>;
    const mainThread = Object.fromEntries(
      detailItems(lhr, "mainthread-work-breakdown").map((item) => [String(item.groupLabel ?? item.group), Math.round(Number(item.duration))]),
    );
    const bootup = detailItems(lhr, "bootup-time")
      .map((item) => ({ url: String(item.url), scriptingMs: Math.round(Number(item.scripting)), parseMs: Math.round(Number(item.scriptParseCompile)) }))
      .slice(0, 6);
    const longTasks = detailItems(lhr, "long-tasks")
      .map((item) => ({ url: String(item.url), startMs: Math.round(Number(item.startTime)), durationMs: Math.round(Number(item.duration)) }))
      .sort((a, b) => a.startMs - b.startMs);
    let finalScreenshot: string | null = null;
    const shot = lhr.audits["final-screenshot"]?.details;
    if (screenshotPath && shot && "data" in shot && typeof shot.data === "string") {
      // Lighthouse gives a JPEG; kept as PNG, which every image viewer here shows.
      await sharp(Buffer.from(shot.data.replace(/^data:image\/\w+;base64,/, ""), "base64"))
        .png()
        .toFile(screenshotPath);
      finalScreenshot = screenshotPath;
    }
    return { performance: Math.round(score * 100), metrics, mainThread, bootup, longTasks, finalScreenshot };
  } finally {
    await chrome.stop();
  }
}

function spread(values: number[]) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

function summarise(name: VariantName, label: string, url: string, samples: RunSample[]): VariantSummary {
  const scores = samples.map((s) => s.performance);
  const metrics = Object.fromEntries(
    (Object.keys(METRICS) as MetricName[]).map((m) => [m, spread(samples.map((s) => s.metrics[m]))]),
  ) as VariantSummary["metrics"];
  return { name, label, url, performance: { ...spread(scores), all: scores }, metrics, samples };
}

export async function runLighthouseMission(options: LighthouseOptions): Promise<LighthouseResults> {
  const { supervisor, submissions, rounds, warmupRounds } = options;
  const settings = { submissions, rounds, warmupRounds };
  const goal = `mission page Lighthouse Performance (desktop) ≥ ${GOAL.minPerformance}`;
  const pkg = JSON.parse(readFileSync(join(ROOT, "node_modules/lighthouse/package.json"), "utf8")) as { version: string };
  const base = {
    benchmark: "lighthouse-mission" as const,
    goal,
    settings,
    lighthouse: { version: pkg.version, chromium: CHROMIUM, args: LIGHTHOUSE_CHROMIUM_ARGS },
    loadAverage1m: [],
    screenshots: [],
  };
  const nextBuild = await ensureNextBuild(supervisor, options.build);
  if (!nextBuild.usable) return { ...base, nextBuild, notRun: nextBuild.reason };

  const dataDir = supervisor.tempDir("lighthouse-data");
  const seeded = await seedDashboard(dataDir, [submissions], log);
  const mission = seeded.missions[0];
  if (!mission) throw new Error("no mission seeded");
  const { compareDir } = options;
  checkCompareBuild(compareDir);
  const { app, reference, referenceDataDir } = await startNextWithReference(supervisor, dataDir, compareDir, "lighthouse-reference-data");
  const worker = builtMaplibreWorker();
  const baselineServer = await startBareMapServer(worker);
  const shotsDir = join(options.resultsDir, "lighthouse");
  mkdirSync(shotsDir, { recursive: true });
  try {
    const browser = await launchChromium();
    let storage: StorageState;
    let referenceStorage: StorageState | undefined;
    let captured: Awaited<ReturnType<typeof captureMissionPoints>>;
    try {
      storage = await signIn(browser, app.url, seeded.user);
      if (reference) referenceStorage = await signIn(browser, reference.url, seeded.user);
      captured = await captureMissionPoints(browser, storage, app.url, mission);
    } finally {
      await browser.close();
    }
    const subjectUrl = `${app.url}/missions/${mission.id}`;
    const size = await measureMissionMapSize(subjectUrl, storage, DESKTOP);
    log(`mission map ${size.width} × ${size.height} at ${DESKTOP.width} × ${DESKTOP.height}`);
    baselineServer.put("/points.json", { body: captured.body, contentType: captured.contentType });
    baselineServer.put("/bare.html", {
      body: Buffer.from(
        barePageHtml({
          origin: baselineServer.url,
          workerPath: worker.path,
          pointsPath: "/points.json",
          bbox: mission.bbox,
          heading: "Bare MapLibre",
          ...size,
        }),
      ),
      contentType: contentTypeOf("bare.html"),
    });
    const baselineUrl = `${baselineServer.url}/bare.html`;
    const cookie = cookieHeader(storage, app.url);
    const referenceUrl = reference ? `${reference.url}/missions/${mission.id}` : null;
    const variants: { name: VariantName; url: string; cookie: string | null }[] = [
      { name: "subject", url: subjectUrl, cookie },
      { name: "baseline", url: baselineUrl, cookie: null },
      ...(reference && referenceUrl && referenceStorage
        ? [{ name: "reference" as const, url: referenceUrl, cookie: cookieHeader(referenceStorage, reference.url) }]
        : []),
    ];
    const screenshots: string[] = [];
    const measured = await interleave({
      rounds,
      warmupRounds,
      targets: variants,
      sample: async (variant, turn) => {
        const shot = turn.warmup ? null : join(shotsDir, `${variant.name}-round-${turn.round + 1}.png`);
        const sample = await runOnceRetried(supervisor, variant.url, variant.cookie, shot);
        if (sample.finalScreenshot) screenshots.push(sample.finalScreenshot);
        return sample;
      },
      onSample: (variant, turn, sample) =>
        log(
          `${turn.warmup ? "warm-up" : `round ${turn.round + 1}/${rounds}`} ${variant.name}: performance ${sample.performance}, ` +
            `FCP ${fmt(sample.metrics.fcpMs)} ms, LCP ${fmt(sample.metrics.lcpMs)} ms, TBT ${fmt(sample.metrics.tbtMs)} ms, SI ${fmt(sample.metrics.speedIndexMs)} ms, CLS ${fmt(sample.metrics.cls, 3)}`,
        ),
    });
    const samples = (name: VariantName) => measured.of(name);
    const load = measured.loadAverage1m;
    const subject = summarise("subject", "mission page (npm start, /missions/{id}, signed in)", subjectUrl, samples("subject"));
    const baseline = summarise("baseline", "bare MapLibre page (same points, style, camera, clusters, layers)", baselineUrl, samples("baseline"));
    const referenceSummary = referenceUrl
      ? summarise("reference", `mission page of ${compareDir ?? ""} (--compare-dir)`, referenceUrl, samples("reference"))
      : undefined;
    return {
      ...base,
      nextBuild,
      subject,
      baseline,
      ...(referenceSummary ? { reference: referenceSummary, compareDir } : {}),
      meetsGoal: subject.performance.median >= GOAL.minPerformance,
      loadAverage1m: load,
      screenshots,
    };
  } finally {
    await baselineServer.close();
    await app.process.stop();
    await reference?.process.stop();
    if (referenceDataDir) rmSync(referenceDataDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- report ---------------------------------------------------------------------------------

export function lighthouseHeader(settings: LighthouseSettings): string[] {
  return [
    `- lighthouse-mission: Lighthouse desktop preset (simulated throttling), performance category only, Debian's Chromium (${LIGHTHOUSE_CHROMIUM_ARGS.join(" ")}), ` +
      `a fresh Chromium and profile per run; ${settings.warmupRounds} warm-up + ${settings.rounds} measured rounds, each the mission page (${fmt(settings.submissions)} submissions) and the bare MapLibre page, who goes first alternating`,
  ];
}

const range = (s: { median: number; min: number; max: number }, digits = 0) => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

export function formatLighthouseMission(results: LighthouseResults): string {
  const lines = [`### lighthouse-mission — ${results.goal}`, ""];
  lines.push(describeBuild(results.nextBuild));
  if (results.notRun || !results.subject || !results.baseline) return [...lines, "", `Not run: ${results.notRun ?? "no results"}`].join("\n");
  lines.push(
    `Lighthouse ${results.lighthouse.version}; medians (min–max) of ${results.settings.rounds} runs per page; 1-min load average after each round: ${results.loadAverage1m.map((l) => fmt(l, 2)).join(", ")}.`,
    "",
    "| page | Performance | FCP ms | LCP ms | TBT ms | Speed Index ms | CLS |",
    "|---|---|---|---|---|---|---|",
  );
  for (const v of [results.subject, results.baseline, ...(results.reference ? [results.reference] : [])]) {
    const m = v.metrics;
    lines.push(
      `| ${v.label} | **${range(v.performance)}** | ${range(m.fcpMs)} | ${range(m.lcpMs)} | ${range(m.tbtMs)} | ${range(m.speedIndexMs)} | ${range(m.cls, 3)} |`,
    );
  }
  lines.push("", `Goal: ${results.meetsGoal ? "met" : "**not met**"} (median ${results.subject.performance.median}).`);
  const last = results.subject.samples.at(-1);
  const tasks = (v: VariantSummary | undefined) => {
    const run = v?.samples.at(-1);
    return v && run
      ? `${v.name}: ${run.longTasks.map((t) => `${fmt(t.durationMs)} ms at ${fmt(t.startMs)} (${t.url.replace(/^https?:\/\/[^/]+/, "").slice(0, 40)})`).join(", ") || "none"}`
      : null;
  };
  lines.push("", "Long tasks of each page's last run (each adds its time beyond 50 ms to TBT):", "");
  for (const line of [tasks(results.subject), tasks(results.baseline), tasks(results.reference)]) if (line) lines.push(`- ${line}`);
  if (last) {
    lines.push(
      "",
      "Mission page, last run — main thread by category (ms): " +
        Object.entries(last.mainThread)
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join(", "),
      "",
      "| script (last run of the mission page) | scripting ms | parse + compile ms |",
      "|---|---:|---:|",
      ...last.bootup.map((b) => `| ${b.url.replace(/^https?:\/\/[^/]+/, "")} | ${fmt(b.scriptingMs)} | ${fmt(b.parseMs)} |`),
    );
  }
  if (results.screenshots.length) lines.push("", `Final screenshots: ${results.screenshots.map((s) => `\`${s}\``).join(", ")}`);
  return lines.join("\n");
}

function settingsFrom(options: RunOptions): LighthouseSettings {
  return { submissions: options.inputs.lighthouseSubmissions, rounds: options.rounds.rounds, warmupRounds: options.rounds.warmupRounds };
}

export const benchmark = defineBenchmark({
  name: "lighthouse-mission",
  header: (options) => lighthouseHeader(settingsFrom(options)),
  run: ({ supervisor, options, resultsDir }) =>
    runLighthouseMission({
      supervisor,
      resultsDir,
      build: options.build,
      ...(options.compareDir ? { compareDir: options.compareDir } : {}),
      ...settingsFrom(options),
    }),
  format: formatLighthouseMission,
});
