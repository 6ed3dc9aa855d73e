// Markdown pieces shared by the in-process file benchmarks (photo-intake, mission-export,
// thumbnail-job): the throughput table, the ratio table and the profile section.
import { cpus } from "node:os";
import { formatProfile } from "./profile-summary";
import type { InProcessProfile } from "./in-process-profile";
import type { RunOptions } from "./cli";
import type { PairedRatio, RoundSettings, RoundsResult } from "./rounds";

import { fmt } from "./interleave";

export { fmt };

export function describeRounds(settings: RoundSettings, result: RoundsResult): string {
  return (
    `Method: in this process, one file at a time; ${settings.warmupRounds} warm-up round(s) discarded, then ` +
    `${settings.rounds} measured rounds of ${result.passesPerRound} pass(es) over the inputs per variant ` +
    `(${fmt(result.work.files)} files, ${fmt(result.work.bytes / 1e6, 1)} MB per pass), variant order rotating ` +
    "each round, a full GC before each timed round; figures at the median round, MB = 10^6 bytes; " +
    "ratio = median over rounds of the paired per-round ratio (min–max in brackets). " +
    `1-min load average after each round: ${result.loadAverage1m.map((l) => fmt(l, 2)).join(", ")} (on ${cpus().length} CPUs).`
  );
}

export function timingTable(result: RoundsResult): string[] {
  return [
    "| variant | median round s | MB/s | files/s | rounds (s) | median CPU s |",
    "|---|---:|---:|---:|---|---:|",
    ...result.timings.map(
      (t) =>
        `| ${t.label} | ${fmt(t.medianRoundSeconds, 3)} | ${fmt(t.mbPerSecond, 1)} | ${fmt(t.filesPerSecond, 1)} | ${t.roundSeconds.map((s) => fmt(s, 2)).join(", ")} | ${fmt(t.medianCpuSeconds, 3)} |`,
    ),
  ];
}

/** A ratio row: a rounds.ts PairedRatio, or one whose value is null (and meetsGoal null) for an invalid run. */
export type RatioRow = Omit<PairedRatio, "of" | "value" | "meetsGoal"> & { value: number | null; meetsGoal?: boolean | null };

function verdict(r: RatioRow): string {
  if (r.meetsGoal === null || r.value === null) return "invalid run (see checks)";
  if (r.meetsGoal === undefined)
    return r.name.startsWith("CPU") ? "diagnostic: CPU work per file, little disturbed by other processes" : "diagnostic (no goal)";
  return r.meetsGoal ? "meets goal" : "**below goal**";
}

export function ratioTable(ratios: readonly RatioRow[]): string[] {
  return [
    "| throughput ratio | value | (min–max) | goal | |",
    "|---|---:|---|---|---|",
    ...ratios.map(
      (r) =>
        `| ${r.name} | ${r.value === null ? "–" : fmt(r.value, 3)} | (${fmt(r.min, 3)}–${fmt(r.max, 3)}) | ${r.goal === undefined ? "–" : `≥ ${r.goal}`} | ${verdict(r)} |`,
    ),
  ];
}

export function profileSection(title: string, profile: InProcessProfile | undefined): string[] {
  if (!profile) return [];
  return [
    "",
    `#### ${title} (in-process inspector profile, ${fmt(profile.seconds, 2)} s, saved as \`${profile.savedAs}\`; not used in the ratios)`,
    "",
    formatProfile(profile.summary),
  ];
}

/** A variant's files (calls, operations) per second in each round: "a, b, c". */
export function formatPerRoundRates(rounds: RoundsResult, name: string): string {
  const t = rounds.timings.find((x) => x.name === name);
  if (!t) return "";
  return t.roundSeconds.map((s) => fmt((rounds.passesPerRound * rounds.work.files) / s)).join(", ");
}

/** Each round's throughput ratio of `variant` to `baseline` (baseline's seconds ÷ the variant's), 3 decimals: "a, b, c". */
export function formatPerRoundRatios(rounds: RoundsResult, variant: string, baseline: string): string {
  const base = rounds.timings.find((t) => t.name === baseline)?.roundSeconds ?? [];
  const subject = rounds.timings.find((t) => t.name === variant)?.roundSeconds ?? [];
  return subject.map((s, i) => fmt((base[i] ?? 0) / s, 3)).join(", ");
}

/** "12.3 ms" style per-file cost. */
export const ms = (seconds: number, digits = 2) => `${fmt(seconds * 1000, digits)} ms`;

/** The rounds part every file benchmark reports: how it was measured, timings, then ratios. */
export function roundsSection(settings: RoundSettings, result: RoundsResult): string[] {
  return [describeRounds(settings, result), "", ...timingTable(result), "", ...ratioTable([...result.ratios, ...result.cpuRatios])];
}

/** The run header's line for the benchmarks timed in this process with rounds.ts. */
export function fileBenchmarksHeader(options: Pick<RunOptions, "rounds" | "inputs">): string[] {
  const { rounds, inputs } = options;
  return [
    `- file benchmarks: in the runner process, subject and baseline on the same files in the same run; ${rounds.warmupRounds} warm-up + ${rounds.rounds} measured rounds per variant, ` +
      `≥ ${rounds.minRoundSeconds} s per round; ${inputs.photos} generated photos (+ corpus files when present); absolute figures depend on this machine, compare the ratios`,
  ];
}
