import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeUnusedTemplates } from "./pglite-template";

const DAY = 24 * 3600_000;
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the PGlite template dumps in the temp dir", () => {
  it("removes the other dumps unused for a week, and nothing else", async () => {
    dir = mkdtempSync(join(tmpdir(), "pglite-templates-"));
    const now = Date.now();
    const file = (name: string, ageDays: number) => {
      const path = join(dir ?? "", name);
      writeFileSync(path, "x");
      const at = new Date(now - ageDays * DAY);
      utimesSync(path, at, at);
      return path;
    };
    const current = file("photo-missions-pglite-aaaa.tar", 30); // this checkout's: kept however old
    const recent = file("photo-missions-pglite-bbbb.tar", 6); // another checkout's, used this week
    const stale = file("photo-missions-pglite-cccc.tar", 8);
    const unrelated = file("something-else.tar", 30);
    const half = file("photo-missions-pglite-dddd.tar.123.456", 30); // another process's dump being written

    expect(await removeUnusedTemplates(dir, "photo-missions-pglite-aaaa.tar", now)).toEqual(["photo-missions-pglite-cccc.tar"]);
    expect([current, recent, stale, unrelated, half].map((p) => existsSync(p))).toEqual([true, true, false, true, true]);
  });
});
