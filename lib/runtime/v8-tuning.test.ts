// The V8 settings (v8-tuning.ts) apply to a process only when its entry point imports them before
// anything else: a module loaded earlier may already have had its allocation sites moved to the
// old generation. The benchmarks' processes import them too, so subjects and baselines run under
// the same runtime.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const TUNING_IMPORT = 'import "@/lib/runtime/v8-tuning";';

const SERVICE_ENTRIES = ["scripts/server.ts", "scripts/api-server.ts", "scripts/worker.ts"];
const BENCH_PROCESSES = [
  // The baselines.
  "scripts/bench/bare-server.ts",
  "scripts/bench/bare-routes-server.ts",
  "scripts/bench/fastify-peer-server.ts",
  "scripts/bench/api-routes-peer-server.ts",
  "scripts/bench/minimal-create-server.ts",
  // The runner and the webhook benchmark host a service runtime in their own process.
  "scripts/bench/run.ts",
  "scripts/bench/webhook-delivery-cli.ts",
];

function firstImport(file: string): string | undefined {
  const source = readFileSync(join(ROOT, file), "utf8");
  return source.split("\n").find((line) => line.startsWith("import "));
}

describe("V8 settings", () => {
  it.each([...SERVICE_ENTRIES, ...BENCH_PROCESSES])("%s imports them first", (file) => {
    expect(firstImport(file)?.startsWith(TUNING_IMPORT)).toBe(true);
  });

  it("turn allocation-site pretenuring off", async () => {
    const { SERVICE_V8_FLAGS } = await import("./v8-tuning");
    expect(SERVICE_V8_FLAGS).toContain("--no-allocation-site-pretenuring");
  });
});
