// The Python client (standard library only) against the running service, through python3: its
// unittest suite (offline checks and the calls in tests/test_service.py) and the README's quick
// start run as written, with the credentials a reader would get from the operator CLI.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { startTestService, type TestService } from "@/lib/service/http/tests/harness";
import { quickStartEnv, QUICK_START_PLACE } from "../../quick-start-env";
import { quickStartCode } from "../../readme-code";

const packageDir = new URL("..", import.meta.url).pathname;

let service: TestService;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "pm-python-"));
  service = await startTestService({}, { worker: true });
  const squarePhoto = join(scratch, "photos", "square.jpg");
  const base = await quickStartEnv(service, scratch, "Python quick start");
  writeFileSync(squarePhoto, await makePhoto({ ...QUICK_START_PLACE, accuracyM: 5, directionDeg: 90, capturedAt: new Date(), seed: 7 }));
  env = {
    ...base,
    SQUARE_PHOTO_FILE: squarePhoto,
    // As after `pip install ./clients/python`.
    PYTHONPATH: join(packageDir, "src"),
  };
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function python(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", args, {
      cwd: scratch,
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", PYTHONDONTWRITEBYTECODE: "1", ...env },
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

describe("clients/python", () => {
  it("passes its unittest suite against the service, none skipped", async () => {
    const { code, stdout, stderr } = await python(["-m", "unittest", "discover", "-s", join(packageDir, "tests"), "-v"]);
    expect(code, stderr).toBe(0);
    // unittest reports on stderr: every test ran (the service tests are skipped only without the URL).
    expect(stderr).toMatch(/^Ran (\d+) tests/m);
    expect(Number(/^Ran (\d+) tests/m.exec(stderr)?.[1])).toBeGreaterThanOrEqual(16);
    expect(stderr).toMatch(/^OK$/m);
    expect(stderr + stdout).not.toMatch(/skipped/);
  }, 120_000);

  it("runs the README's quick start end to end: mission, upload, submissions, verified webhook; order, confirm, photos", async () => {
    const file = join(scratch, "quick_start.py");
    writeFileSync(file, quickStartCode(join(packageDir, "README.md"), "python"));
    const { code, stdout, stderr } = await python([file]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).not.toMatch(/refused a webhook/);
    expect(stdout).toMatch(/^mission mission_\S+: active, 1 image\(s\) required$/m);
    expect(stdout).toMatch(/^submission sub_\S+: received$/m);
    expect(stdout).toMatch(/^listed sub_\S+: /m);
    expect(stdout).toMatch(/^webhook verified: submission\.received for sub_/m);
    expect(stdout).toMatch(/^order \S+: (confirmed|in_progress)$/m);
    expect(stdout).toMatch(/^webhook verified: photos\.delivered for /m);
    expect(Number(/^photo \S+ \(front\): (\d+) bytes$/m.exec(stdout)?.[1] ?? 0)).toBeGreaterThan(10_000);
  }, 120_000);
});
