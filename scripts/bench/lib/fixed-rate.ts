// Open-loop load at a fixed rate: calls started on an absolute schedule (call i at i / rate
// seconds after the start), each without waiting for the earlier ones, as independent producers
// (requests) would; a slow call neither delays the next nor makes the schedule drift. For
// latencies measured at a steady rate (webhook-delivery: enqueue → delivered).
import { round3 } from "./interleave";
import { wallClockMs } from "./wall-clock";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls per second between the first and the last start (wall-clock ms, in order); `rate` when there is no interval. */
export function computeAchievedRate(startedAt: readonly number[], rate: number): number {
  const first = startedAt[0] ?? 0;
  const last = startedAt[startedAt.length - 1] ?? first;
  return last > first ? round3(((startedAt.length - 1) * 1000) / (last - first)) : rate;
}

/**
 * Starts `call(i)` for i < total at `rate` per second (the first 20 ms from now) and waits for all;
 * a failure is kept and rethrown after the schedule, never left unhandled. `startedAt` reads a
 * result's own start stamp (wall-clock ms), from which the achieved rate is computed.
 */
export async function runAtRate<R>(
  total: number,
  rate: number,
  call: (i: number) => Promise<R>,
  startedAt: (result: R) => number,
): Promise<{ list: R[]; achievedRate: number }> {
  const pending: Promise<{ ok: R } | { error: Error }>[] = [];
  const start = wallClockMs() + 20;
  for (let i = 0; i < total; i++) {
    // Node's timers count whole milliseconds of the loop's clock and can fire up to 1 ms early
    // against this sub-ms clock: sleep again until the call is due, so none starts early.
    const due = start + (i * 1000) / rate;
    for (let wait = due - wallClockMs(); wait > 0; wait = due - wallClockMs()) await sleep(wait);
    pending.push(
      call(i).then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error: error instanceof Error ? error : new Error(String(error)) }),
      ),
    );
  }
  const results = await Promise.all(pending);
  const failed = results.find((r) => "error" in r);
  if (failed && "error" in failed) throw failed.error;
  const list = results.flatMap((r) => ("ok" in r ? [r.ok] : []));
  return { list, achievedRate: computeAchievedRate(list.map(startedAt), rate) };
}
