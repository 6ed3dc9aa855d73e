// CPU profile of work done in this process (the file benchmarks call the service's functions
// directly, so there is no child to start under --cpu-prof). Samples the main thread only: time
// libvips spends on its own threads shows up here as idle, waiting for sharp's promise.
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { summariseProfile, type ProfileSummary } from "./profile-summary";

export interface InProcessProfile {
  savedAs: string;
  seconds: number;
  summary: ProfileSummary;
}

export async function profileInProcess(resultsDir: string, name: string, work: () => Promise<void>): Promise<InProcessProfile> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    // 200 µs: fine enough for per-file steps of a few ms, light enough not to dominate them.
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
    const started = performance.now();
    await work().catch(async (error: unknown) => {
      await session.post("Profiler.stop");
      throw error;
    });
    const seconds = Math.round(performance.now() - started) / 1000;
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(join(resultsDir, "profiles"), { recursive: true });
    const savedAs = join(resultsDir, "profiles", `${name}.cpuprofile`);
    writeFileSync(savedAs, JSON.stringify(profile));
    return { savedAs, seconds, summary: summariseProfile(savedAs) };
  } finally {
    session.disconnect();
  }
}

/** --profile: `passes` passes of the subject under the inspector; undefined when not asked for. */
export async function profilePasses(
  enabled: boolean,
  resultsDir: string,
  name: string,
  passes: number,
  pass: (n: number) => Promise<void>,
): Promise<InProcessProfile | undefined> {
  if (!enabled) return undefined;
  return profileInProcess(resultsDir, name, async () => {
    for (let n = 0; n < passes; n++) await pass(n);
  });
}
