// A wall clock with sub-millisecond resolution that two processes on one machine agree on, for
// latencies measured between processes (enqueued in the runner, arrived in the receiver child).
// Date.now() is shared but counts whole ms; `performance.timeOrigin + performance.now()` has the
// resolution but its origin is taken at process start with a per-process error of several ms
// (measured here: 2–10 ms). So each process pins performance.now() to the moment Date.now()
// ticks over to a new millisecond, which puts both on the same clock to within microseconds.

function calibrate(): number {
  let offset = Date.now() - performance.now();
  let narrowest = Infinity;
  // A few tick edges; keep the one seen through the shortest window (least preempted).
  for (let edge = 0; edge < 5; edge++) {
    const start = Date.now();
    let before = performance.now();
    let tick = Date.now();
    while (tick === start) {
      before = performance.now();
      tick = Date.now();
    }
    const after = performance.now();
    if (after - before < narrowest) {
      narrowest = after - before;
      offset = tick - (before + after) / 2;
    }
  }
  return offset;
}

const OFFSET = calibrate();

/** Milliseconds since the epoch, fractional. */
export function wallClockMs(): number {
  return OFFSET + performance.now();
}
