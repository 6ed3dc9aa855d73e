import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { commandLine, defineBenchmark, runHeader, withSupervisor, type BenchContext, type MachineInfo } from "./benchmark";
import { parseRunOptions } from "./cli";
import { Supervisor } from "./processes";

const sigintListeners = process.listenerCount("SIGINT");

const INFO: MachineInfo = { cpus: 2, cpuModel: "Test CPU", node: "v20.0.0", platform: "linux 6", memoryGiB: 4, loadAverageAtStart: [1, 2, 3] };

describe("defineBenchmark", () => {
  it("runs the declaration, formats its results and records what it asks for", async () => {
    const options = parseRunOptions(["--rounds", "2"], ["demo"], {});
    const seen: number[] = [];
    const benchmark = defineBenchmark({
      name: "demo",
      header: (o) => [`- demo: ${o.rounds.rounds} rounds`],
      run: ({ options: o }) => {
        seen.push(o.rounds.rounds);
        return Promise.resolve({ ratio: 0.5 });
      },
      format: (r) => `ratio ${r.ratio}`,
      record: (r, o) => ({ rounds: o.rounds.rounds, ...r }),
    });
    const context: BenchContext = { supervisor: new Supervisor(), options, resultsDir: "/tmp", photos: () => Promise.reject(new Error("no photos")) };
    expect(await benchmark.run(context)).toEqual({ results: { rounds: 2, ratio: 0.5 }, markdown: "ratio 0.5" });
    expect(seen).toEqual([2]);
    expect(benchmark.header(options, INFO)).toEqual(["- demo: 2 rounds"]);
    const plain = defineBenchmark({ name: "plain", run: () => Promise.resolve({ a: 1 }), format: () => "" });
    expect(plain.header(options, INFO)).toEqual([]);
    expect((await plain.run(context)).results).toEqual({ a: 1 });
  });
});

describe("the run header", () => {
  it("prints each shared header line once, after the command and machine", () => {
    const options = parseRunOptions([], [], {});
    const shared = () => ["- shared line"];
    const a = defineBenchmark({ name: "a", header: shared, run: () => Promise.resolve({}), format: () => "" });
    const b = defineBenchmark({ name: "b", header: () => [...shared(), "- b only"], run: () => Promise.resolve({}), format: () => "" });
    const text = runHeader(INFO, "npm run bench", options, [a, b]);
    expect(text.split("\n")).toEqual([
      "## Benchmarks",
      "",
      "- command: `npm run bench`",
      "- machine: 2 × Test CPU, 4 GiB, linux 6; node v20.0.0; load average at start 1 2 3",
      "- shared line",
      "- b only",
    ]);
  });

  it("repeats the command as it was started, quoting what a shell would split", () => {
    expect(commandLine(["map-points", "--rounds", "3"], "bench")).toBe("npm run bench -- map-points --rounds 3");
    expect(commandLine([], "bench")).toBe("npm run bench");
    expect(commandLine(["--compare-dir", "a b"], undefined)).toBe('tsx scripts/bench/run.ts --compare-dir "a b"');
  });
});

describe("withSupervisor", () => {
  it("removes the run's temp dirs and stops its children when the work throws", async () => {
    let dir = "";
    let pid = 0;
    await expect(
      withSupervisor(async (supervisor) => {
        dir = supervisor.tempDir("test");
        pid = supervisor.spawn({ name: "sleeper", command: "sleep", args: ["30"] }).pid;
        throw new Error("benchmark failed");
      }),
    ).rejects.toThrow("benchmark failed");
    expect(existsSync(dir)).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(process.listenerCount("SIGINT")).toBe(sigintListeners);
  });
});
