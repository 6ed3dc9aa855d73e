import type { MachineInfo } from "./benchmark";
import type { RunOptions } from "./cli";

/** The report header of the autocannon benchmarks (api-get-mission, api-routes). */
export function loadHeader(options: RunOptions, info: MachineInfo): string[] {
  const { load } = options;
  return [
    `- api-get-mission load: autocannon, ${load.connections} connections, pipelining 1, ${load.warmupSeconds} s warm-up (discarded) + ${load.durationSeconds} s measured per target, one target at a time`,
    `- note: the load generator (autocannon, in the runner process) and the server under test share these ${info.cpus} CPUs, ` +
      "so absolute figures understate a real server; compare the ratios, which are measured in the same run under the same handicap.",
    `- latency: per response, sub-millisecond (autocannon's own histogram counts whole ms)`,
  ];
}
