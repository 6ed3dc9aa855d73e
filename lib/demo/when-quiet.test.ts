import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
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

describe("whenQuiet in a paused process", () => {
  // A child serving a load (busy, a request in flight) waits for a quiet moment; the load ends, and
  // the child is paused while idle (SIGSTOP: a frozen container, a benchmark pausing a target) and
  // resumed. The pause counts as idle time, so the window that spans it looks quiet, at the very
  // moment the callers that waited through the pause come back.
  const module = (name: string) => JSON.stringify(fileURLToPath(new URL(name, import.meta.url)));
  const CHILD = `
    const { whenQuiet } = await import(${module("./when-quiet.ts")});
    const { TrafficMeter } = await import(${module("../service/traffic-meter.ts")});
    const traffic = new TrafficMeter();
    traffic.started();
    let busy = true;
    process.on("SIGUSR2", () => {
      busy = false;
      traffic.ended();
      console.log("ended");
    });
    const timer = setInterval(() => {
      const until = performance.now() + 40;
      while (busy && performance.now() < until) {}
    }, 10);
    console.log("waiting");
    await whenQuiet({ windowMs: 500, idleFor: (ms) => traffic.idleFor(ms) });
    console.log("quiet at " + Date.now());
    clearInterval(timer);
  `;

  it("does not take the window the pause spans as quiet: it watches a whole one after it", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      await vi.waitFor(() => expect(output).toContain("waiting"), { timeout: 30_000, interval: 20 });
      await sleep(300);
      expect(output).not.toContain("quiet");
      // The load ends; the child is paused once it has seen that, idle (well within the half second
      // of quiet it waits for).
      child.kill("SIGUSR2");
      await vi.waitFor(() => expect(output).toContain("ended"), { timeout: 10_000, interval: 2 });
      child.kill("SIGSTOP");
      await sleep(3_000);
      const resumedAt = Date.now();
      child.kill("SIGCONT");
      expect(await exited, output).toBe(0);
      const quietAt = Number(/quiet at (\d+)/.exec(output)?.[1]);
      // A whole window watched after the resume, not the one the pause filled.
      expect(quietAt - resumedAt, output).toBeGreaterThanOrEqual(480);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});
