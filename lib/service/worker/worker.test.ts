import { describe, expect, it } from "vitest";
import { startPollingWorker } from "./worker";

/** A promise with its resolve function outside. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("startPollingWorker", () => {
  it("refills a freed slot while a slow item is still running, never exceeding its concurrency", async () => {
    const queue = Array.from({ length: 10 }, (_, i) => i);
    const slow = gate();
    const done: number[] = [];
    let running = 0;
    let peak = 0;
    const allFastDone = gate();
    const worker = startPollingWorker(
      "test",
      async (limit) => queue.splice(0, limit),
      async (item) => {
        running++;
        peak = Math.max(peak, running);
        if (item === 0) await slow.opened;
        else await new Promise((r) => setTimeout(r, 5));
        running--;
        done.push(item);
        if (done.length === 9 && !done.includes(0)) allFastDone.open();
      },
      { pollMs: 10_000, concurrency: 3 },
    );
    // Items 1–9 pass through the two other slots while item 0 holds the first.
    await allFastDone.opened;
    expect(done).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(3);
    slow.open();
    await worker.stop();
    expect(done).toContain(0);
  });

  it("fills slots that free in the same turn with one claim, not one claim per slot", async () => {
    const queue = Array.from({ length: 8 }, (_, i) => i);
    const limits: number[] = [];
    const batch = gate();
    const allDone = gate();
    let done = 0;
    const worker = startPollingWorker(
      "test",
      async (limit) => {
        limits.push(limit);
        return queue.splice(0, limit);
      },
      async (item) => {
        // The first four finish in the same turn, a few microtasks apart (as outcomes read from
        // several sockets in one turn do).
        if (item < 4) {
          await batch.opened;
          for (let i = 0; i < item * 3; i++) await Promise.resolve();
        }
        if (++done === 8) allDone.open();
      },
      { pollMs: 10_000, concurrency: 4 },
    );
    await new Promise((r) => setTimeout(r, 20));
    batch.open();
    await allDone.opened;
    await worker.stop();
    expect(limits.slice(0, 2)).toEqual([4, 4]);
  });

  it("a wake-up, or a stop, that arrives while it is claiming is not lost (no poll-long pause after it)", async () => {
    let claims = 0;
    const holder: { worker?: ReturnType<typeof startPollingWorker<number>> } = {};
    const third = gate();
    holder.worker = startPollingWorker(
      "test",
      async () => {
        claims++;
        // Work committed while the second claim runs (it has already looked, and found nothing).
        if (claims === 2) holder.worker?.wake();
        if (claims === 3) third.open();
        return [];
      },
      async () => {},
      { pollMs: 60_000 },
    );
    await new Promise((r) => setTimeout(r, 20)); // the first claim found nothing: asleep for a minute
    holder.worker.wake();
    // With the second wake-up lost, the third claim would wait for the minute-long poll.
    await third.opened;
    expect(claims).toBe(3);
    // Stopped while the third claim is still running: it returns without waiting out the minute.
    await holder.worker.stop();
  });
});
