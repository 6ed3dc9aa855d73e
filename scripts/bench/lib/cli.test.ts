import { describe, expect, it } from "vitest";
import { DEFAULTS, parseRunOptions, postgresNote } from "./cli";

const KNOWN = ["photo-intake", "map-points"];

describe("parseRunOptions", () => {
  it("falls back to the documented defaults and reads no database or other Node from an empty environment", () => {
    const options = parseRunOptions([], KNOWN, {});
    expect(options.load).toEqual({ durationSeconds: 10, warmupSeconds: 3, connections: 10 });
    expect(options.rounds).toEqual({ rounds: 5, warmupRounds: 1, minRoundSeconds: 1 });
    expect(options.inputs).toEqual({
      photos: 40,
      exportImages: 400,
      memorySizes: [100, 1000],
      mapSizes: [10_000, 100_000, 1_000_000],
      lighthouseSubmissions: 10_000,
    });
    expect(options).toMatchObject({ build: "auto", skipNext: false, profile: false, demo: true, selected: [] });
    expect(options.databaseUrl).toBeUndefined();
    expect(options.otherNode).toBeUndefined();
    // The defaults are not shared arrays a run could sort in place.
    expect(options.inputs.mapSizes).not.toBe(DEFAULTS.mapSizes);
  });

  it("reads flags, benchmark names and the environment", () => {
    const options = parseRunOptions(
      [
        "map-points",
        "--rounds",
        "1",
        "--duration",
        "0.5",
        "--connections",
        "3.6",
        "--map-sizes",
        "1000, 10",
        "--no-build",
        "--profile",
        "--compare-dir",
        "/tmp/x",
      ],
      KNOWN,
      { TEST_DATABASE_URL: "postgres://x", BENCH_OTHER_NODE: "/opt/node", BENCH_DEMO: "off" },
    );
    expect(options.selected).toEqual(["map-points"]);
    expect(options.rounds.rounds).toBe(1);
    expect(options.load.durationSeconds).toBe(0.5);
    expect(options.load.connections).toBe(4);
    expect(options.inputs.mapSizes).toEqual([10, 1000]);
    expect(options.build).toBe("never");
    expect(options.profile).toBe(true);
    expect(options.compareDir).toBe("/tmp/x");
    expect(options.databaseUrl).toBe("postgres://x");
    expect(options.otherNode).toBe("/opt/node");
    expect(options.demo).toBe(false);
    expect(postgresNote(options)).toBe("PostgreSQL too (TEST_DATABASE_URL)");
    expect(postgresNote({})).toBe("PostgreSQL skipped (TEST_DATABASE_URL not set)");
  });

  it("names the flag that is wrong", () => {
    const parse =
      (...argv: string[]) =>
      () =>
        parseRunOptions(argv, KNOWN, {});
    expect(parse("--rounds", "0")).toThrow("--rounds needs a positive number");
    expect(parse("--rounds", "1.5")).toThrow("--rounds needs a whole number");
    expect(parse("--duration", "abc")).toThrow("--duration needs a positive number");
    expect(parse("--memory-sizes", "100")).toThrow("--memory-sizes needs at least 2 sizes");
    expect(parse("--map-sizes", "10,x")).toThrow("--map-sizes needs a positive number");
    expect(parse("--build", "--no-build")).toThrow("--build and --no-build exclude each other");
    expect(parse("nope")).toThrow("unknown benchmark(s): nope; known: photo-intake, map-points");
    expect(() => parseRunOptions([], KNOWN, { BENCH_DEMO: "no" })).toThrow("BENCH_DEMO is on or off");
    expect(parse("--no-such-flag")).toThrow();
  });
});
