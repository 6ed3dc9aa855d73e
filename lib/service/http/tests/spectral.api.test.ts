// Lints the public OpenAPI document with Spectral (spectral:oas + the OWASP API Security Top 10
// 2023 ruleset, configured by .spectral.yaml at the repository root): no error may remain. The
// document is generated for an https origin, as a production deployment serves it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  severity: 0 | 1 | 2 | 3;
}

const SEVERITY = ["error", "warning", "information", "hint"] as const;
const ROOT = join(import.meta.dirname, "../../../..");

let service: TestService;
let results: SpectralResult[];

beforeAll(async () => {
  service = await startTestService({ publicOrigin: "https://api.photo-missions.example" });
  const doc = await new TestClient(service).request("GET", "/api/v1/openapi.json");
  expect(doc.status).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), "pm-spectral-"));
  try {
    const file = join(dir, "openapi.json");
    const out = join(dir, "results.json");
    writeFileSync(file, doc.text);
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, "node_modules/@stoplight/spectral-cli/dist/index.js"),
        "lint",
        file,
        "--ruleset",
        join(ROOT, ".spectral.yaml"),
        "--format",
        "json",
        "--output",
        out,
        "--fail-severity",
        "error",
      ],
      { cwd: ROOT, encoding: "utf8", timeout: 120_000 },
    );
    // Exit 1 means "results at or above the fail severity": read them; anything else is a failure to run.
    if (run.status !== 0 && run.status !== 1) throw new Error(`spectral exited ${run.status}: ${run.stderr}`);
    results = JSON.parse(readFileSync(out, "utf8")) as SpectralResult[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
afterAll(() => service.close());

const describeResult = (r: SpectralResult) => `${SEVERITY[r.severity]} ${r.code} at ${r.path.join(".")}: ${r.message}`;

describe("Spectral (spectral:oas + OWASP API Security 2023) on the public document", () => {
  it("reports no errors", () => {
    expect(results.filter((r) => r.severity === 0).map(describeResult)).toEqual([]);
  });

  it("the ruleset keeps the request-limit rules, and every rule it switches off says why", () => {
    const ruleset = readFileSync(join(ROOT, ".spectral.yaml"), "utf8");
    for (const rule of ["request-array-limit", "request-string-limit", "request-integer-limit"]) expect(ruleset).toContain(`${rule}:`);
    // Every rule switched off in the ruleset carries a reason on the comment lines above it (one
    // comment may explain a group of rules switched off together).
    const lines = ruleset.split("\n");
    const off = (line: string | undefined) => /:\s*off\s*$/.test(line ?? "");
    lines.forEach((line, i) => {
      if (!off(line)) return;
      let above = i - 1;
      while (off(lines[above])) above -= 1;
      expect(lines[above]?.trim().startsWith("#"), `no reason above "${line.trim()}"`).toBe(true);
    });
  });
});
