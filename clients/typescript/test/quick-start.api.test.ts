// The README's quick start, run as written against the running service: the package is built and
// packed with `npm pack`, installed from its tarball into a scratch directory, and the README's
// code block is run there by node with the credentials a reader would get from the operator CLI.
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "@/lib/service/http/tests/harness";
import { quickStartEnv } from "../../quick-start-env";
import { quickStartCode } from "../../readme-code";

const run = promisify(execFile);
const packageDir = new URL("..", import.meta.url).pathname;

let service: TestService;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "pm-sdk-quick-start-"));
  const [started, packed] = await Promise.all([
    startTestService({}, { worker: true }),
    run("npm", ["pack", "--pack-destination", scratch, "--silent"], { cwd: packageDir }),
  ]);
  service = started;
  const tarball = packed.stdout.trim().split("\n").at(-1) ?? "";
  const installed = join(scratch, "node_modules", "@photo-missions", "sdk");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["-xzf", join(scratch, tarball), "-C", installed, "--strip-components=1"]);

  env = await quickStartEnv(service, scratch, "Quick start");
}, 180_000);

afterAll(async () => {
  await service?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function runNode(file: string, extraEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], {
      cwd: scratch,
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("clients/typescript/README.md quick start", () => {
  it("packs to a tarball holding the built ESM package and its types, with no runtime dependencies", () => {
    const manifest = JSON.parse(readFileSync(join(scratch, "node_modules/@photo-missions/sdk/package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "@photo-missions/sdk", type: "module" });
    expect(manifest.dependencies).toBeUndefined();
    expect(readFileSync(join(scratch, "node_modules/@photo-missions/sdk/dist/index.js"), "utf8")).toContain("PhotoMissions");
    expect(readFileSync(join(scratch, "node_modules/@photo-missions/sdk/dist/index.d.ts"), "utf8")).toContain("verifyWebhook");
  });

  it("runs end to end: mission, zoomer upload, submissions listed, webhook verified; order, confirm, photos received", async () => {
    const file = join(scratch, "quick-start.mjs");
    writeFileSync(file, quickStartCode(join(packageDir, "README.md"), "js"));
    const { code, stdout, stderr } = await runNode(file, env);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stderr).not.toMatch(/refused a webhook/);
    expect(stdout).toMatch(/^mission mission_\S+: active, 1 image\(s\) required$/m);
    expect(stdout).toMatch(/^submission sub_\S+: received$/m);
    expect(stdout).toMatch(/^listed sub_\S+: /m);
    expect(stdout).toMatch(/^webhook verified: submission\.received for sub_/m);
    expect(stdout).toMatch(/^order \S+: (confirmed|in_progress)$/m);
    expect(stdout).toMatch(/^webhook verified: photos\.delivered for /m);
    const photoLine = /^photo \S+ \(front\): (\d+) bytes$/m.exec(stdout);
    expect(Number(photoLine?.[1] ?? 0)).toBeGreaterThan(10_000);
  }, 120_000);
});
