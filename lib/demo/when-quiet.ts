// The demo yields to real traffic: before each of its own steps it waits until this process's
// event loop has been mostly idle for a short window. The demo's photos (rendering, intake, the
// jobs they start) share the process and the cores with the API; under load the demo simply waits,
// so it never starves the service (issue 27: an API with the demo on within 0.8 of demo off).
import { setTimeout as sleep } from "node:timers/promises";
import { performance } from "node:perf_hooks";

export interface QuietOptions {
  /** How long a window of the event loop's utilisation is. */
  windowMs?: number;
  /** The utilisation (0–1) at or below which the process counts as quiet. */
  maxBusy?: number;
  /** Gives up waiting (resolves) once this says so, e.g. when the demo stops. */
  stopped?: () => boolean;
  /**
   * Whether no real caller was served within the last `ms` (the service's TrafficMeter): on a
   * starved machine a loaded server's event loop can look idle while its callers wait.
   */
  idleFor?: (ms: number) => boolean;
}

/**
 * A window that lasted this many times what it asked for was not watched: the process was paused
 * (SIGSTOP, a frozen container, a debugger) or its event loop blocked. A process paused while idle
 * counts the pause as idle time, so it would look quiet the moment it resumes, when the callers
 * that waited through the pause come back.
 */
const OVERRUN = 2;

export async function whenQuiet({ windowMs = 250, maxBusy = 0.25, stopped = () => false, idleFor = () => true }: QuietOptions = {}): Promise<void> {
  while (!stopped()) {
    const start = performance.eventLoopUtilization();
    await sleep(windowMs, undefined, { ref: false });
    const window = performance.eventLoopUtilization(start);
    // Idle and active time together are the window's length.
    if (window.idle + window.active > OVERRUN * windowMs) continue;
    if (window.utilization <= maxBusy && idleFor(windowMs)) return;
  }
}
