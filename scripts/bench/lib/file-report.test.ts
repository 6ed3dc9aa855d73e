import { describe, expect, it } from "vitest";
import { formatPerRoundRates, formatPerRoundRatios, ratioTable } from "./file-report";
import type { RoundsResult } from "./rounds";

describe("ratioTable", () => {
  it("writes a goal's verdict, a diagnostic without goal, and an invalid run (no value) as such", () => {
    const [header, , ...rows] = ratioTable([
      { name: "a / b", value: 0.6, min: 0.5, max: 0.7, goal: 0.5, meetsGoal: true },
      { name: "c / b", value: 0.4, min: 0.3, max: 0.45, goal: 0.5, meetsGoal: false },
      { name: "d / b", value: 1.2, min: 1.1, max: 1.3 },
      { name: "e / b", value: null, min: 0.2, max: 0.3, goal: 0.5, meetsGoal: null },
    ]);
    expect(header).toBe("| throughput ratio | value | (min–max) | goal | |");
    expect(rows).toEqual([
      "| a / b | 0.600 | (0.500–0.700) | ≥ 0.5 | meets goal |",
      "| c / b | 0.400 | (0.300–0.450) | ≥ 0.5 | **below goal** |",
      "| d / b | 1.200 | (1.100–1.300) | – | diagnostic (no goal) |",
      "| e / b | – | (0.200–0.300) | ≥ 0.5 | invalid run (see checks) |",
    ]);
  });
});

describe("per-round rates and ratios", () => {
  const timing = (name: string, roundSeconds: number[]) => ({
    name,
    label: name,
    roundSeconds,
    medianRoundSeconds: 0,
    cpuRoundSeconds: [],
    medianCpuSeconds: 0,
    mbPerSecond: 0,
    filesPerSecond: 0,
  });
  const rounds: RoundsResult = {
    passesPerRound: 4,
    work: { bytes: 0, files: 50 },
    timings: [timing("base", [1, 2]), timing("subject", [2, 2.5])],
    ratios: [],
    cpuRatios: [],
    loadAverage1m: [],
  };
  it("gives each round's calls per second and the baseline's seconds ÷ the variant's", () => {
    expect(formatPerRoundRates(rounds, "subject")).toBe("100, 80");
    expect(formatPerRoundRates(rounds, "missing")).toBe("");
    expect(formatPerRoundRatios(rounds, "subject", "base")).toBe("0.500, 0.800");
  });
});
