import { existsSync } from "node:fs";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sweepTempUploads } from "./sweep-temp-uploads";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pm-sweep-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("sweepTempUploads", () => {
  it("removes stale upload files and keeps fresh ones and anything else", async () => {
    const old = new Date(Date.now() - 60 * 60_000);
    await writeFile(join(dir, "upload-stale"), "x");
    await utimes(join(dir, "upload-stale"), old, old);
    await writeFile(join(dir, "upload-live"), "x");
    await writeFile(join(dir, "other-file"), "x");
    await utimes(join(dir, "other-file"), old, old);
    expect(await sweepTempUploads(dir)).toBe(1);
    expect(existsSync(join(dir, "upload-stale"))).toBe(false);
    expect(existsSync(join(dir, "upload-live"))).toBe(true);
    expect(existsSync(join(dir, "other-file"))).toBe(true);
  });

  it("is quiet when there is no temp directory", async () => {
    expect(await sweepTempUploads(join(dir, "missing"))).toBe(0);
  });
});
