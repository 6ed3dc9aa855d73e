import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIELD_UPLOAD_FILE_GRACE_MS, sweepUploadFiles } from "./sweep-field-uploads";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pm-tus-sweep-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const id = (n: number) => `upl_${String(n).padStart(26, "0")}`;
const old = new Date(Date.now() - 2 * FIELD_UPLOAD_FILE_GRACE_MS);

async function plant(name: string, mtime = old): Promise<void> {
  await writeFile(join(dir, name), "x");
  await utimes(join(dir, name), mtime, mtime);
}

describe("sweepUploadFiles", () => {
  it("removes the bytes and records of uploads without a live row, keeps the live ones, and asks about each id once", async () => {
    for (const name of [id(1), `${id(1)}.json`, id(2), `${id(2)}.json`, `${id(3)}.json`, id(4), "stray.tmp"]) await plant(name);
    const asked: string[][] = [];
    const removed = await sweepUploadFiles({
      directory: dir,
      liveIds: async (ids) => {
        asked.push([...ids].sort());
        return new Set([id(1)]);
      },
    });
    expect(removed).toBe(5);
    expect((await readdir(dir)).sort()).toEqual([id(1), `${id(1)}.json`]);
    expect(asked).toEqual([[id(1), id(2), id(3), id(4), "stray.tmp"].sort()]);
  });

  it("leaves a file younger than the grace alone, and takes it once the grace has passed", async () => {
    await plant(id(5), new Date());
    const none = async () => new Set<string>();
    expect(await sweepUploadFiles({ directory: dir, liveIds: none })).toBe(0);
    expect(await readdir(dir)).toEqual([id(5)]);
    expect(await sweepUploadFiles({ directory: dir, liveIds: none, now: new Date(Date.now() + FIELD_UPLOAD_FILE_GRACE_MS + 1000) })).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it("does not descend into directories, and is quiet when there is no upload directory", async () => {
    await mkdir(join(dir, "sub"));
    const none = async () => new Set<string>();
    expect(await sweepUploadFiles({ directory: dir, liveIds: none, now: new Date(Date.now() + 3600_000) })).toBe(0);
    expect(await readdir(dir)).toEqual(["sub"]);
    expect(await sweepUploadFiles({ directory: join(dir, "missing"), liveIds: none })).toBe(0);
  });
});
