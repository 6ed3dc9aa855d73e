import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { TrafficMeter } from "@/lib/service/traffic-meter";
import { whenQuiet } from "./when-quiet";

/** Keeps the event loop about 80 % busy (as a loaded API does) until stopped. */
function busyLoop(): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + 40;
    while (performance.now() < until) {
      // busy, like a request handler
    }
  }, 10);
  return () => clearInterval(timer);
}

describe("whenQuiet (the demo yields to traffic)", () => {
  it("waits while the process is busy and resolves once it is quiet", async () => {
    const stopBusy = busyLoop();
    let resolved = false;
    const waiting = whenQuiet({ windowMs: 100 }).then(() => (resolved = true));
    await sleep(600);
    expect(resolved).toBe(false);
    stopBusy();
    await waiting;
    expect(resolved).toBe(true);
  });

  it("resolves at once on an idle process, and gives up when stopped", async () => {
    const started = performance.now();
    await whenQuiet({ windowMs: 50 });
    expect(performance.now() - started).toBeLessThan(500);
    const stopBusy = busyLoop();
    let stopped = false;
    const waiting = whenQuiet({ windowMs: 50, stopped: () => stopped });
    stopped = true;
    await waiting;
    stopBusy();
  });
});

describe("whenQuiet with the service's traffic", () => {
  it("waits while a network request is in flight, even on an idle event loop", async () => {
    const traffic = new TrafficMeter();
    traffic.started();
    let resolved = false;
    const waiting = whenQuiet({ windowMs: 50, idleFor: (ms) => traffic.idleFor(ms) }).then(() => (resolved = true));
    await sleep(300);
    expect(resolved).toBe(false);
    traffic.ended();
    await waiting;
    expect(resolved).toBe(true);
  });
});
