// Where a page load's time goes, from a Chrome trace (Playwright's browser.startTracing): busy
// time per thread of every Chromium process (the page's main thread, MapLibre's worker, the GPU
// process that runs software WebGL); on the page's main thread, time per script (outermost
// script event: evaluation, compilation, calls into it) and per kind of browser work (GC, style,
// layout, paint, HTML parsing); and from V8's sampling profiler (recorded into the same trace),
// self time per script and per function on the main thread and in the page's workers — the
// only view of JavaScript run from promise callbacks, which the trace files under RunMicrotasks.
// All between navigation start and the page's mark; formatTraceSummary puts it in a report.
import { writeFileSync } from "node:fs";
import { fmt } from "./interleave";

export const TRACE_CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8",
  "v8.execute",
  "blink.user_timing",
  "disabled-by-default-v8.cpu_profiler",
];

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber?: number };
}

interface TraceEvent {
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  ph: string;
  name: string;
  cat: string;
  id?: string;
  args?: {
    name?: string;
    data?: Record<string, unknown> & {
      startTime?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
    fileName?: string;
  };
}

export interface ThreadBusy {
  thread: string;
  ms: number;
}

export interface MainThreadItem {
  what: string;
  ms: number;
}

/** Self time from V8's samples on one thread. */
export interface SampledThread {
  thread: string;
  sampledMs: number;
  /** Per script (or V8's own: GC, program, idle). */
  byScript: MainThreadItem[];
  functions: MainThreadItem[];
}

export interface TraceSummary {
  savedAs: string;
  /** Navigation start → the mark, in the page's renderer. */
  windowMs: number;
  threads: ThreadBusy[];
  mainThread: MainThreadItem[];
  sampled: SampledThread[];
}

const TOP_LEVEL = "ThreadControllerImpl::RunTask";
// Browser work worth naming on the main thread when no script is on the stack around it.
const NAMED_WORK = new Set([
  "MajorGC",
  "MinorGC",
  "V8.GC_MC_BACKGROUND_MARKING",
  "ParseHTML",
  "ParseAuthorStyleSheet",
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Layerize",
  "Commit",
  "RunMicrotasks",
  "v8.compile",
  "v8.compileModule",
]);
const SCRIPT_EVENTS = new Set(["EvaluateScript", "v8.evaluateModule", "FunctionCall", "v8.compile", "v8.compileModule", "v8.parseOnBackground"]);

function scriptUrl(event: TraceEvent): string | undefined {
  const data = event.args?.data;
  const url = data?.url ?? data?.scriptName ?? event.args?.fileName;
  return typeof url === "string" && url !== "" ? url : undefined;
}

const sum = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);
const clip = (start: number, end: number, from: number, to: number) => Math.max(0, Math.min(end, to) - Math.max(start, from));

/**
 * Summarises `trace` between the last main-frame navigation start before `mark` and `mark`, in
 * the renderer that set the mark. `label` names script URLs (e.g. which library a chunk holds).
 */
export function summariseTrace(trace: Buffer, mark: string, savedAs: string, label: (url: string) => string): TraceSummary {
  writeFileSync(savedAs, trace);
  const events = (JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const threadNames = new Map<string, string>();
  const processNames = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== "M") continue;
    if (e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "?");
    if (e.name === "process_name") processNames.set(e.pid, e.args?.name ?? "?");
  }
  const markEvent = events.filter((e) => e.name === mark && e.cat.includes("blink.user_timing")).sort((a, b) => a.ts - b.ts)[0];
  if (!markEvent) throw new Error(`the trace has no ${mark} mark`);
  // The mark carries its navigation's id (other frames start navigations in the same renderer),
  // and its own time from that navigation's start.
  const navigationId = markEvent.args?.data?.navigationId;
  const navigation = events.find((e) => e.pid === markEvent.pid && e.name === "navigationStart" && e.args?.data?.navigationId === navigationId);
  const markStart = markEvent.args?.data?.startTime;
  const from = navigation?.ts ?? (typeof markStart === "number" ? markEvent.ts - markStart * 1000 : undefined);
  if (from === undefined) throw new Error("the trace has no navigationStart for the mark's navigation");
  const to = markEvent.ts;

  const busy = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== "X" || e.name !== TOP_LEVEL || e.dur === undefined) continue;
    const overlap = clip(e.ts, e.ts + e.dur, from, to);
    if (overlap <= 0) continue;
    const process = processNames.get(e.pid) ?? `pid ${e.pid}`;
    const thread = threadNames.get(`${e.pid}:${e.tid}`) ?? `tid ${e.tid}`;
    sum(busy, `${process === "Renderer" && e.pid === markEvent.pid ? "page renderer" : process} / ${thread}`, overlap);
  }

  // The page's main thread: walk its complete events in order with a stack, attributing each
  // outermost script event to its script, and named browser work outside scripts to its name.
  const mainTid = events.find((e) => e.pid === markEvent.pid && threadNames.get(`${e.pid}:${e.tid}`) === "CrRendererMain")?.tid;
  const main = events
    .filter((e) => e.pid === markEvent.pid && e.tid === mainTid && e.ph === "X" && e.dur !== undefined && e.ts + (e.dur ?? 0) > from && e.ts < to)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const items = new Map<string, number>();
  const stack: { end: number; inScript: boolean; named: boolean }[] = [];
  let taskMs = 0;
  let attributed = 0;
  for (const e of main) {
    const end = e.ts + (e.dur ?? 0);
    while (stack.length && (stack.at(-1)?.end ?? 0) <= e.ts) stack.pop();
    const parentInScript = stack.some((s) => s.inScript);
    const parentNamed = stack.some((s) => s.named);
    const url = SCRIPT_EVENTS.has(e.name) ? scriptUrl(e) : undefined;
    const overlap = clip(e.ts, end, from, to);
    if (e.name === TOP_LEVEL && stack.length === 0) taskMs += overlap;
    let inScript = parentInScript;
    let named = parentNamed;
    if (!parentInScript && !parentNamed) {
      if (url) {
        sum(items, `script ${label(url)}`, overlap);
        attributed += overlap;
        inScript = true;
      } else if (NAMED_WORK.has(e.name)) {
        sum(items, e.name, overlap);
        attributed += overlap;
        named = true;
      }
    }
    stack.push({ end, inScript, named });
  }
  if (taskMs > attributed) items.set("other work in tasks (no script on the stack)", taskMs - attributed);
  const ms = (us: number) => Math.round(us / 100) / 10;
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  const rows = (map: Map<string, number>, least: number, top: number) =>
    sorted(map)
      .filter(([, us]) => us >= least)
      .slice(0, top)
      .map(([what, us]) => ({ what, ms: ms(us) }));
  const sampled = sampledThreads(events, markEvent.pid, threadNames, from, to, label).map((t) => ({
    thread: t.thread,
    sampledMs: ms(t.totalUs),
    byScript: rows(t.byScript, 10_000, 10),
    functions: rows(t.functions, 10_000, 12),
  }));
  return {
    savedAs,
    sampled,
    windowMs: ms(to - from),
    threads: sorted(busy)
      .filter(([, us]) => us >= 20_000)
      .map(([thread, us]) => ({ thread, ms: ms(us) })),
    mainThread: sorted(items)
      .filter(([, us]) => us >= 10_000)
      .map(([what, us]) => ({ what, ms: ms(us) })),
  };
}

interface SampledTotals {
  thread: string;
  totalUs: number;
  byScript: Map<string, number>;
  functions: Map<string, number>;
}

/**
 * Self time per script and per function from the V8 sample chunks of the renderer `pid`'s main
 * thread and workers, counting samples between `from` and `to` (each sample weighs the time to
 * the next one). Profiles are recorded per thread: a Profile event names the thread, its
 * ProfileChunk events (same id) carry nodes, samples and time deltas.
 */
function sampledThreads(
  events: TraceEvent[],
  pid: number,
  threadNames: Map<string, string>,
  from: number,
  to: number,
  label: (url: string) => string,
): SampledTotals[] {
  const profiles = new Map<string, { thread: string; start: number; nodes: Map<number, ProfileNode>; samples: number[]; deltas: number[] }>();
  for (const e of events) {
    if (e.pid !== pid || e.id === undefined) continue;
    if (e.name === "Profile") {
      const thread = threadNames.get(`${e.pid}:${e.tid}`) ?? `tid ${e.tid}`;
      profiles.set(e.id, { thread, start: e.args?.data?.startTime ?? e.ts, nodes: new Map(), samples: [], deltas: [] });
    } else if (e.name === "ProfileChunk") {
      const profile = profiles.get(e.id);
      const data = e.args?.data;
      if (!profile || !data) continue;
      for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
      profile.samples.push(...(data.cpuProfile?.samples ?? []));
      profile.deltas.push(...(data.timeDeltas ?? []));
    }
  }
  const wanted = (thread: string) => thread === "CrRendererMain" || thread.startsWith("DedicatedWorker");
  const results: SampledTotals[] = [];
  for (const profile of profiles.values()) {
    if (!wanted(profile.thread)) continue;
    const totals: SampledTotals = { thread: profile.thread, totalUs: 0, byScript: new Map(), functions: new Map() };
    let ts = profile.start;
    const times = profile.samples.map((_, i) => (ts += profile.deltas[i] ?? 0));
    for (let i = 0; i < profile.samples.length; i++) {
      const at = times[i] ?? 0;
      const weight = Math.max(0, Math.min((times[i + 1] ?? at) - at, 10_000));
      if (at < from || at >= to || weight === 0) continue;
      const node = profile.nodes.get(profile.samples[i] ?? -1);
      if (!node) continue;
      const { functionName, url } = node.callFrame;
      if (functionName === "(idle)") continue;
      const script = url ? label(url) : functionName.startsWith("(") ? functionName : "(native / V8)";
      totals.totalUs += weight;
      sum(totals.byScript, script, weight);
      sum(totals.functions, `${functionName || "(anonymous)"} — ${script}`, weight);
    }
    if (totals.totalUs > 0) results.push(totals);
  }
  return results.sort((a, b) => (a.thread === "CrRendererMain" ? -1 : b.thread === "CrRendererMain" ? 1 : b.totalUs - a.totalUs));
}

/** A trace summary as Markdown: the window, the busiest threads, the main thread's work, the V8 samples per script and function. */
export function formatTraceSummary(title: string, p: TraceSummary): string[] {
  const lines = [
    `${title}: ${fmt(p.windowMs)} ms from navigation start to the mark (tracing slows it), trace \`${p.savedAs}\``,
    "",
    "| thread busy (ms) | |",
    "|---|---:|",
    ...p.threads.slice(0, 8).map((t) => `| ${t.thread} | ${fmt(t.ms)} |`),
    "",
    "| page main thread: script or work (ms) | |",
    "|---|---:|",
    ...p.mainThread.slice(0, 12).map((t) => `| ${t.what} | ${fmt(t.ms)} |`),
  ];
  for (const t of p.sampled) {
    lines.push(
      "",
      `| ${t.thread === "CrRendererMain" ? "main thread" : t.thread}, V8 samples: self time (${fmt(t.sampledMs)} ms sampled) | ms |`,
      "|---|---:|",
      ...t.byScript.slice(0, 6).map((r) => `| ${r.what} | ${fmt(r.ms)} |`),
      ...t.functions.slice(0, 8).map((r) => `| ↳ ${r.what} | ${fmt(r.ms)} |`),
    );
  }
  return lines;
}
