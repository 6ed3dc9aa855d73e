// A separate pass of a server under `node --cpu-prof` and the same load as its measured runs: the
// main thread's profile is saved under bench-results/profiles/ and summarised. Its figures are
// slowed by the profiler and never enter a ratio.
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatProfile, summariseProfile, type ProfileSummary } from "./profile-summary";
import { fmt } from "./interleave";
import { measure, type LoadSettings, type Measurement, type RequestShape } from "./load";
import type { Supervisor } from "./processes";
import { startApi, type ApiKind, type ApiPostgres, type RunningApi } from "./targets";

export interface ServerProfile {
  measurement: Measurement;
  savedAs: string;
  summary: ProfileSummary;
}

/**
 * The main thread's profile. Node writes one file per thread, CPU.<date>.<time>.<pid>.<thread>.<seq>,
 * and with `--import tsx` the module-loader hooks run on a second thread (thread id ≠ 0).
 */
export function mainThreadProfile(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  const main = files.find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  const chosen = main ?? files.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!chosen) throw new Error(`the profiled server wrote no .cpuprofile into ${dir}`);
  return join(dir, chosen);
}

export async function profileApi(options: {
  supervisor: Supervisor;
  kind: ApiKind;
  postgres?: ApiPostgres;
  load: LoadSettings;
  shape?: RequestShape;
  resultsDir: string;
  /** The saved profile's name, without .cpuprofile. */
  file: string;
  /** Seeds the started API and says which request to load it with. */
  prepare(api: RunningApi): Promise<{ url: string; headers: Record<string, string> }>;
}): Promise<ServerProfile> {
  const dir = options.supervisor.tempDir("cpuprof");
  const api = await startApi(options.supervisor, options.kind, { cpuProfileDir: dir, ...(options.postgres ? { postgres: options.postgres } : {}) });
  const request = await options.prepare(api);
  console.error(`[bench] ${options.file} under --cpu-prof`);
  const measurement = await measure(request.url, request.headers, options.load, options.shape);
  await api.process.stop(); // SIGTERM: the server exits cleanly and node writes the profile
  mkdirSync(join(options.resultsDir, "profiles"), { recursive: true });
  const savedAs = join(options.resultsDir, "profiles", `${options.file}.cpuprofile`);
  copyFileSync(mainThreadProfile(dir), savedAs);
  // The server is stopped right after the measured run: its last `duration` seconds are that run.
  return { measurement, savedAs, summary: summariseProfile(savedAs, { windowMs: options.load.durationSeconds * 1000 }) };
}

/** The report section of a profiled pass. */
export function profileReport(profile: ServerProfile | undefined, what: string): string[] {
  if (!profile) return [];
  const m = profile.measurement;
  return [
    "",
    `#### Profile of ${what} under the same load (\`node --cpu-prof\`, saved as \`${profile.savedAs}\`)`,
    "",
    `Under the profiler: ${fmt(m.requestsPerSecond)} req/s, p99 ${fmt(m.latencyMs.p99, 2)} ms${m.valid ? "" : ` (invalid: ${m.invalidReason ?? ""})`}; not used in the ratios.`,
    "",
    formatProfile(profile.summary),
  ];
}
