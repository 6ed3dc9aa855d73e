import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit";

describe("GroupCommit", () => {
  it("writes a lone item after the current turn, and what comes during a write as the next batch", async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const group = new GroupCommit<number>(async (batch) => {
      batches.push(batch);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 64);
    const first = group.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((n) => group.add(n));
    expect(batches).toEqual([[1]]);
    release();
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it("writes what is added in one turn as one batch, though no write was running (PGlite finishes each statement before the next socket is read)", async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number>(async (batch) => {
      batches.push(batch);
    }, 64);
    // Three outcomes read in one turn, each adding as it is handled, with a microtask between.
    const added: Promise<void>[] = [];
    for (const n of [1, 2, 3]) {
      added.push(group.add(n));
      await Promise.resolve();
    }
    await Promise.all(added);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it("keeps batches to the maximum", async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const group = new GroupCommit<number>(async (batch) => {
      batches.push(batch);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 2);
    const first = group.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4, 5].map((n) => group.add(n));
    release();
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("retries a refused batch item by item: only the item the write refuses fails", async () => {
    const written: number[] = [];
    let release: () => void = () => undefined;
    let calls = 0;
    const group = new GroupCommit<number>(async (batch) => {
      calls += 1;
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      if (batch.includes(13)) throw new Error("refused");
      written.push(...batch);
    }, 64);
    const first = group.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const outcomes = [12, 13, 14].map((n) =>
      group.add(n).then(
        () => "ok",
        (error: unknown) => (error as Error).message,
      ),
    );
    release();
    await first;
    expect(await Promise.all(outcomes)).toEqual(["ok", "refused", "ok"]);
    expect(written).toEqual([1, 12, 14]);
  });
});
