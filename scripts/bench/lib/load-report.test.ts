import { describe, expect, it } from "vitest";
import type { Measurement } from "./load";
import { compareCpuPerRequest, judgeRatio, pickMedianRound, type MeasuredTarget } from "./load-report";

const run = (requestsPerSecond: number, p99: number, valid = true): Measurement => ({
  valid,
  requestsPerSecond,
  totalRequests: requestsPerSecond,
  latencyMs: { mean: p99 / 2, p50: p99 / 2, p90: p99, p99, max: p99 },
  counts: { "2xx": requestsPerSecond, non2xx: 0, errors: 0, timeouts: 0, resets: 0 },
  statusCodes: {},
  bytesPerSecond: 0,
  durationSeconds: 1,
  warmup: { requests: 0, valid: true },
  loadAverage1mAfter: 1,
});

const target = (label: string, rounds: Measurement[], cpu?: number[]): MeasuredTarget =>
  pickMedianRound(rounds.map((measurement, i) => ({ label, measurement, ...(cpu ? { cpuPerRequestUs: [cpu[i] ?? 0] } : {}) }))) ?? { label };

describe("pickMedianRound", () => {
  it("reports the round with the median throughput, keeps every round, and CPU only when every round has it", () => {
    const t = pickMedianRound([
      { label: "a", measurement: run(300, 1), cpuPerRequestUs: [30] },
      { label: "a", measurement: run(100, 3), cpuPerRequestUs: [10] },
      { label: "a", measurement: run(200, 2), cpuPerRequestUs: [20] },
    ]);
    expect(t?.measurement?.requestsPerSecond).toBe(200);
    expect(t?.rounds?.map((m) => m.requestsPerSecond)).toEqual([300, 100, 200]);
    expect(t?.cpuPerRequestUs).toEqual([30, 10, 20]);
    const partial = pickMedianRound([
      { label: "b", measurement: run(1, 1), cpuPerRequestUs: [5] },
      { label: "b", measurement: run(2, 1) },
    ]);
    expect(partial?.cpuPerRequestUs).toEqual([5]); // the median round's own, not the incomplete list
    expect(pickMedianRound([])).toBeUndefined();
  });
});

describe("judgeRatio", () => {
  const rps = (m: Measurement) => m.requestsPerSecond;
  it("takes the median of the per-round ratios with their range, and judges it against the goal", () => {
    const ours = target("ours", [run(50, 1), run(90, 1), run(60, 1)]);
    const bare = target("bare", [run(100, 1), run(100, 1), run(100, 1)]);
    const r = judgeRatio("ours / bare", ours, bare, rps, { kind: "min", value: 0.5 });
    expect(r).toMatchObject({ value: 0.6, goal: "≥ 0.5", meetsGoal: true, range: [0.5, 0.9] });
    expect(judgeRatio("p99", ours, bare, (m) => m.latencyMs.p99, { kind: "max", value: 2 })).toMatchObject({ value: 1, goal: "≤ 2×", meetsGoal: true });
  });

  it("leaves out invalid rounds, and gives no value when a side is not measured or its reported run is invalid", () => {
    const ours = target("ours", [run(50, 1), run(10, 1, false), run(80, 1)]);
    const bare = target("bare", [run(100, 1), run(100, 1), run(100, 1)]);
    expect(judgeRatio("r", ours, bare, rps, null)).toMatchObject({ value: 0.65, goal: "(reference)", meetsGoal: null, range: [0.5, 0.8] });
    expect(judgeRatio("r", undefined, bare, rps, null)).toMatchObject({ value: null, note: "not measured" });
    expect(judgeRatio("r", target("x", [run(10, 1, false)]), bare, rps, null)).toMatchObject({ value: null, note: "invalid run" });
  });
});

describe("compareCpuPerRequest", () => {
  it("divides the baseline's CPU per request by each other target's, per round", () => {
    const targets = [
      { name: "bare", ...target("bare", [run(1, 1), run(1, 1)], [20, 30]) },
      { name: "ours", ...target("ours", [run(1, 1), run(1, 1)], [40, 100]) },
      { name: "none", ...target("none", [run(1, 1)]) },
    ];
    expect(compareCpuPerRequest(targets, (t) => t.name, "bare")).toEqual([{ name: "bare ÷ ours CPU time per request", value: 0.4, range: [0.3, 0.5] }]);
    expect(compareCpuPerRequest(targets.slice(1), (t) => t.name, "bare")).toEqual([]);
  });
});
