import { existsSync } from "node:fs";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sweepTempUploads, tempUploadName, writerIsGone, type UploadWriter } from "./sweep-temp-uploads";

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

describe("temp uploads of a process that is gone", () => {
  const self: UploadWriter = { host: "web-1", pid: 4242, life: "0a0b0c0d" };
  const running = (pid: number) => pid === 4242 || pid === 777;

  it("names each file after the process that writes it", () => {
    expect(tempUploadName(self)).toMatch(/^upload-web-1\.4242\.0a0b0c0d-[0-9a-f]{24}$/);
  });

  it("are told apart from live ones: a dead pid, or this pid in an earlier life, is gone", () => {
    expect(writerIsGone(tempUploadName({ ...self, pid: 9999 }), self, running)).toBe(true);
    expect(writerIsGone(tempUploadName({ ...self, life: "ffffffff" }), self, running)).toBe(true);
    expect(writerIsGone(tempUploadName(self), self, running)).toBe(false);
    expect(writerIsGone(tempUploadName({ ...self, pid: 777 }), self, running)).toBe(false);
    // Another host sharing the directory, or a name from before: cannot be told.
    expect(writerIsGone(tempUploadName({ ...self, host: "web-2", pid: 9999 }), self, running)).toBe(false);
    expect(writerIsGone("upload-0123abcd", self, running)).toBe(false);
  });

  it("are removed however fresh, while fresh files of live or unknown writers stay", async () => {
    const dead = tempUploadName({ ...self, pid: 9999 });
    const earlierLife = tempUploadName({ ...self, life: "ffffffff" });
    const live = tempUploadName(self);
    const otherHost = tempUploadName({ ...self, host: "web-2", pid: 9999 });
    for (const name of [dead, earlierLife, live, otherHost]) await writeFile(join(dir, name), "partial");
    expect(await sweepTempUploads(dir, { self, running })).toBe(2);
    expect([dead, earlierLife, live, otherHost].map((name) => existsSync(join(dir, name)))).toEqual([false, false, true, true]);
  });
});
