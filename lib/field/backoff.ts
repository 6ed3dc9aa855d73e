// How long the field page waits before asking the server again after a failure: doubling from
// `baseMs` up to `maxMs`, with "full jitter" (a random share of the step) so a crowd of phones
// coming back into coverage at once does not knock on the server in lockstep.
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0..1 from the caller (Math.random in the page; fixed in tests). */
  random?: () => number;
}

/** The wait before retry number `attempt` (0 = the first retry). */
export function backoffDelay(attempt: number, { baseMs, maxMs, random = Math.random }: BackoffOptions): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  // Never less than half the step: a retry storm of 0 ms waits helps nobody.
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
