// A poll that survives a lost signal: the field page asks the server for a verdict every
// `intervalMs` until `check` says it is done. A failed request (fetch throws `TypeError: Failed to
// fetch` when the network is gone) is retried with backoff instead of ending the poll, and the
// browser's `online` event asks again at once, so the verdict shows within moments of the signal
// returning. Timers and the online signal are injected so the rules are tested without a browser.
import { backoffDelay, type BackoffOptions } from "./backoff";

export type PollStep = "done" | "again";

export interface PollOptions {
  /** One request; resolves "done" when there is nothing more to wait for. Throws on a network failure. */
  check: () => Promise<PollStep>;
  intervalMs: number;
  /** After this many regular polls, ask every `slowIntervalMs` instead (a backed-up queue). */
  slowAfter?: number;
  slowIntervalMs?: number;
  backoff?: BackoffOptions;
  /** Called with each failure, e.g. to say "waiting for signal". */
  onError?: (error: unknown, retryInMs: number) => void;
  /** Called when a request succeeds again after failures. */
  onRecovered?: () => void;
  timers?: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
  /** Subscribes to "the network is back"; returns the unsubscribe. */
  onOnline?: (fn: () => void) => () => void;
}

export const DEFAULT_POLL_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 30_000 };

function browserOnline(fn: () => void): () => void {
  if (typeof window === "undefined") return () => {};
  window.addEventListener("online", fn);
  return () => window.removeEventListener("online", fn);
}

/** Starts polling at once; returns the stop function (call it when the component goes away). */
export function startPoll(options: PollOptions): () => void {
  const { check, intervalMs, slowAfter = Infinity, slowIntervalMs = intervalMs, backoff = DEFAULT_POLL_BACKOFF, onError, onRecovered } = options;
  const timers = options.timers ?? {
    set: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clear: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  let stopped = false;
  let running = false;
  let timer: unknown = null;
  let polls = 0;
  let failures = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer !== null) timers.clear(timer);
    timer = timers.set(() => {
      timer = null;
      void run();
    }, ms);
  };

  const run = async () => {
    if (stopped || running) return;
    running = true;
    try {
      const step = await check();
      if (stopped) return;
      if (failures > 0) onRecovered?.();
      failures = 0;
      polls += 1;
      if (step === "again") schedule(polls > slowAfter ? slowIntervalMs : intervalMs);
    } catch (error) {
      if (stopped) return;
      const wait = backoffDelay(failures, backoff);
      failures += 1;
      onError?.(error, wait);
      schedule(wait);
    } finally {
      running = false;
    }
  };

  const unsubscribe = (options.onOnline ?? browserOnline)(() => {
    // Only a poll waiting out a failure jumps the queue; a healthy one keeps its rhythm.
    if (failures > 0 && !running) schedule(0);
  });
  void run();

  return () => {
    stopped = true;
    if (timer !== null) timers.clear(timer);
    unsubscribe();
  };
}
