import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startPoll, type PollStep } from "./poll";

const backoff = { baseMs: 1000, maxMs: 8000, random: () => 1 };

function onlineSignal() {
  const listeners = new Set<() => void>();
  return {
    subscribe: (fn: () => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    fire: () => listeners.forEach((fn) => fn()),
    count: () => listeners.size,
  };
}

describe("startPoll", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("keeps polling after a network failure and stops at the verdict", async () => {
    const answers: (PollStep | Error)[] = ["again", new TypeError("Failed to fetch"), new TypeError("Failed to fetch"), "again", "done"];
    const check = vi.fn(async () => {
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next ?? "done";
    });
    const errors: number[] = [];
    const online = onlineSignal();
    startPoll({ check, intervalMs: 500, backoff, onError: (_e, wait) => errors.push(wait), onOnline: online.subscribe });
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(500); // the failure
    await vi.advanceTimersByTimeAsync(1000); // first backoff, fails again
    expect(errors).toEqual([1000, 2000]);
    await vi.advanceTimersByTimeAsync(2000); // second backoff: "again"
    await vi.advanceTimersByTimeAsync(500); // "done"
    expect(check).toHaveBeenCalledTimes(5);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(check).toHaveBeenCalledTimes(5);
  });

  it("asks again as soon as the browser is online after a failure", async () => {
    let offline = true;
    const check = vi.fn(async (): Promise<PollStep> => {
      if (offline) throw new TypeError("Failed to fetch");
      return "done";
    });
    const online = onlineSignal();
    startPoll({ check, intervalMs: 500, backoff: { baseMs: 30_000, maxMs: 30_000, random: () => 1 }, onOnline: online.subscribe });
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    offline = false;
    online.fire();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it("does nothing more once stopped, and lets go of the online signal", async () => {
    const check = vi.fn(async (): Promise<PollStep> => "again");
    const online = onlineSignal();
    const stop = startPoll({ check, intervalMs: 500, onOnline: online.subscribe });
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(check).toHaveBeenCalledTimes(1);
    expect(online.count()).toBe(0);
  });

  it("slows down after many polls", async () => {
    const check = vi.fn(async (): Promise<PollStep> => "again");
    startPoll({ check, intervalMs: 100, slowAfter: 2, slowIntervalMs: 1000, onOnline: onlineSignal().subscribe });
    await vi.advanceTimersByTimeAsync(200);
    expect(check).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(999);
    expect(check).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(4);
  });
});
