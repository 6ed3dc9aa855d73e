// Targets measured under autocannon load (load.ts) in interleaved rounds, and their report: the
// CPU time a target's processes spend per request, the round with the median throughput, ratios
// of two targets against a goal (median of the per-round ratios, with their range), the CPU
// ratios against a baseline, and their Markdown tables.
import { fmt, medianSample, pairedRatio, table } from "./interleave";
import { measure, type LoadSettings, type Measurement, type RequestShape } from "./load";
import { groupCpuMs } from "./processes";
import type { RunningTarget } from "./targets";

/** One target's figures: the round with the median throughput, every round, and CPU per request. */
export interface MeasuredTarget {
  label: string;
  measurement?: Measurement;
  /** Every round's measurement (the one above is the round with the median throughput). */
  rounds?: Measurement[];
  /** CPU time of the target's processes per request (µs, warm-up included), one per round; Linux only. */
  cpuPerRequestUs?: number[];
  /** Why the target was not measured. */
  notRun?: string;
}

/** A server ready for load: the request to send it and the size of the body it answers with. */
export interface LoadTarget {
  running: RunningTarget;
  path: string;
  headers: Record<string, string>;
  bodyBytes: number;
}

/** One round of a load target: its command, URL and body size, the measurement and the CPU µs per request (a one-round list). */
export async function measureLoadTarget(
  target: LoadTarget,
  load: LoadSettings,
): Promise<{ command: string; url: string; bodyBytes: number; measurement: Measurement; cpuPerRequestUs?: number[] }> {
  const { measurement, cpuPerRequestUs } = await measureWithCpu(target.running, `${target.running.url}${target.path}`, target.headers, load);
  return {
    command: target.running.process.commandLine,
    url: target.running.url,
    bodyBytes: target.bodyBytes,
    measurement,
    ...(cpuPerRequestUs !== undefined ? { cpuPerRequestUs: [cpuPerRequestUs] } : {}),
  };
}

/**
 * measure() on a target, with the CPU time its process group used meanwhile (/proc, warm-up
 * included) per request, in µs; undefined where /proc cannot tell.
 */
export async function measureWithCpu(
  running: RunningTarget,
  url: string,
  headers: Record<string, string>,
  load: LoadSettings,
  shape?: RequestShape,
): Promise<{ measurement: Measurement; cpuPerRequestUs?: number }> {
  const pgid = running.process.pid;
  const cpuBefore = groupCpuMs(pgid);
  const measurement = await measure(url, headers, load, shape);
  const cpuAfter = groupCpuMs(pgid);
  const requests = measurement.totalRequests + measurement.warmup.requests;
  const cpuPerRequestUs = cpuBefore !== undefined && cpuAfter !== undefined && requests > 0 ? ((cpuAfter - cpuBefore) * 1000) / requests : undefined;
  return { measurement, ...(cpuPerRequestUs !== undefined ? { cpuPerRequestUs } : {}) };
}

/**
 * A target's rounds (each with its one measurement and CPU figure) as one result: the round with
 * the median throughput, every round's measurement, and the CPU figures when every round has one.
 */
export function pickMedianRound<T extends MeasuredTarget>(results: readonly T[]): (T & { rounds: Measurement[] }) | undefined {
  const middle = medianSample(results, (t) => t.measurement?.requestsPerSecond ?? 0);
  if (!middle) return undefined;
  const cpu = results.flatMap((t) => t.cpuPerRequestUs ?? []);
  return {
    ...middle,
    rounds: results.flatMap((t) => (t.measurement ? [t.measurement] : [])),
    ...(cpu.length === results.length ? { cpuPerRequestUs: cpu } : {}),
  };
}

export interface Goal {
  kind: "min" | "max";
  value: number;
}

export interface GoalRatio {
  name: string;
  value: number | null;
  goal: string;
  meetsGoal: boolean | null;
  note?: string;
  /** Lowest and highest per-round value, when there were several rounds. */
  range?: [number, number];
}

/**
 * pick(num) ÷ pick(den): the median of the per-round ratios (rounds where either run was invalid
 * left out) with its range when there were several rounds, else the reported rounds' ratio; null
 * when a side was not measured or its reported run is invalid. A null goal: a reference ratio.
 */
export function judgeRatio(
  name: string,
  num: MeasuredTarget | undefined,
  den: MeasuredTarget | undefined,
  pick: (m: Measurement) => number,
  goal: Goal | null,
): GoalRatio {
  const goalText = goal === null ? "(reference)" : goal.kind === "min" ? `≥ ${goal.value}` : `≤ ${goal.value}×`;
  const a = num?.measurement;
  const b = den?.measurement;
  if (!a || !b) return { name, value: null, goal: goalText, meetsGoal: null, note: "not measured" };
  if (!a.valid || !b.valid) return { name, value: null, goal: goalText, meetsGoal: null, note: "invalid run" };
  const valid = (rounds: Measurement[] | undefined) => (rounds ?? []).map((m) => (m.valid ? pick(m) : undefined));
  const paired = pairedRatio(valid(num?.rounds), valid(den?.rounds));
  const several = paired && paired.perRound.length > 1 ? paired : undefined;
  const value = several ? several.value : pick(a) / pick(b);
  const range: [number, number] | undefined = several ? [several.min, several.max] : undefined;
  const meetsGoal = goal === null ? null : goal.kind === "min" ? value >= goal.value : value <= goal.value;
  return {
    name,
    value: Math.round(value * 1000) / 1000,
    goal: goalText,
    meetsGoal,
    ...(goal === null ? { note: "no goal: for reading the others" } : {}),
    ...(range ? { range } : {}),
  };
}

/** Baseline's CPU time per request ÷ the target's, median of the rounds: the share of the baseline's efficiency. */
export interface CpuRatio {
  name: string;
  value: number;
  range: [number, number];
}

export function compareCpuPerRequest<T extends MeasuredTarget>(targets: readonly T[], nameOf: (t: T) => string, baseline: string): CpuRatio[] {
  const base = targets.find((t) => nameOf(t) === baseline)?.cpuPerRequestUs;
  if (!base) return [];
  return targets.flatMap((t) => {
    const r = nameOf(t) === baseline || !t.cpuPerRequestUs ? undefined : pairedRatio(base, t.cpuPerRequestUs);
    return r ? [{ name: `${baseline} ÷ ${nameOf(t)} CPU time per request`, value: r.value, range: [r.min, r.max] as [number, number] }] : [];
  });
}

// ---- report ---------------------------------------------------------------------------------

function targetRow(t: MeasuredTarget): string[] {
  const m = t.measurement;
  if (!m) return [t.label, "not run", "", "", "", t.notRun?.split("\n")[0] ?? "", ""];
  const perRound = t.rounds && t.rounds.length > 1 ? ` (rounds: ${t.rounds.map((x) => fmt(x.requestsPerSecond)).join(", ")})` : "";
  const load = fmt(m.loadAverage1mAfter, 2);
  if (!m.valid) return [t.label, "**invalid**", "", "", fmt(m.totalRequests), m.invalidReason ?? "", load];
  return [t.label, `${fmt(m.requestsPerSecond)}${perRound}`, fmt(m.latencyMs.p50, 2), fmt(m.latencyMs.p99, 2), fmt(m.totalRequests), "all 2xx", load];
}

/** The targets' table: the median round's req/s (every round's when several), p50, p99, requests, status, load average. */
export function formatTargetTable(targets: readonly MeasuredTarget[]): string[] {
  return table(["target", "req/s (mean)", "p50 ms", "p99 ms", "requests", "status", "load avg 1m after"], "lrrrrlr", targets.map(targetRow));
}

function goalRatioRow(r: GoalRatio): string[] {
  const verdict = r.meetsGoal === null ? (r.note ?? "") : r.meetsGoal ? "meets goal" : "**below goal**";
  const spread = r.range ? ` (${fmt(r.range[0], 3)}–${fmt(r.range[1], 3)})` : "";
  return [r.name, `${r.value === null ? "–" : fmt(r.value, 3)}${spread}`, r.goal, verdict];
}

export function formatGoalRatioTable(ratios: readonly GoalRatio[]): string[] {
  return table(["ratio (median of per-round ratios, range)", "value", "goal", ""], "lrll", ratios.map(goalRatioRow));
}

/** The CPU ratios and each target's CPU µs per request per round; nothing when there are no ratios. */
export function formatCpuSection<T extends MeasuredTarget>(
  ratios: readonly CpuRatio[] | undefined,
  targets: readonly T[],
  nameOf: (t: T) => string,
  baseline: string,
): string[] {
  if (!ratios || ratios.length === 0) return [];
  return [
    "",
    `CPU time of each target's processes per request (/proc, warm-up included), ${baseline}'s ÷ the target's: the share of ${baseline}'s efficiency, without the load generator's share of the cores (no goal; for reading the throughput ratios on a busy machine).`,
    "",
    "| ratio (median of rounds, range) | value |",
    "|---|---:|",
    ...ratios.map((r) => `| ${r.name} | ${fmt(r.value, 3)} (${fmt(r.range[0], 3)}–${fmt(r.range[1], 3)}) |`),
    "",
    "| target | CPU µs per request, per round |",
    "|---|---|",
    ...targets.flatMap((t) => (t.cpuPerRequestUs ? [`| ${nameOf(t)} | ${t.cpuPerRequestUs.map((us) => fmt(us)).join(", ")} |`] : [])),
  ];
}
