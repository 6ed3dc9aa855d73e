// Diagnostic micro-timings: one function alone in a tight loop, µs per call, to break a subject
// into its steps (verify-photo). Neither paired with a baseline nor part of a ratio.
import { median } from "./interleave";

/** µs per call of `fn` called in a loop for `seconds`; the clock is read every 16 calls (at the µs scale it is not free). */
export async function timeLoopMicroseconds(fn: () => unknown, seconds: number): Promise<number> {
  let calls = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) for (let i = 0; i < 16; i++, calls++) await fn();
  return ((performance.now() - started) * 1000) / calls;
}

/** A warm-up loop of half `seconds`, then the median of `repeats` loops of `seconds`: µs per call, to 0.1. */
export async function timePerCall(fn: () => unknown, seconds: number, repeats: number): Promise<number> {
  await timeLoopMicroseconds(fn, seconds / 2);
  const loops: number[] = [];
  for (let r = 0; r < repeats; r++) loops.push(await timeLoopMicroseconds(fn, seconds));
  return Math.round(median(loops) * 10) / 10;
}
