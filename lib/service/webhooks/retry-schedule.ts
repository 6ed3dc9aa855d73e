// When a failed delivery is tried again: exponential backoff with ±10 % jitter, spread over about
// three days (1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, 24 h after each failure: 9 attempts in
// all, the last ≈ 2.9 days after the first). `scale` shortens the schedule for tests.
export const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 21_600, 43_200, 86_400, 86_400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/**
 * An endpoint failing without a break for this long is disabled when a delivery runs out of
 * attempts — so one that is down for the whole ≈3-day schedule ends up disabled.
 */
export const DISABLE_AFTER_SECONDS = 2 * 86_400;

/** Delay before attempt `attempt + 1`, in ms, after `attempt` attempts have failed; null when none is left. */
export function nextRetryDelayMs(attempt: number, { scale = 1, random = Math.random }: { scale?: number; random?: () => number } = {}): number | null {
  const base = RETRY_DELAYS_SECONDS[attempt - 1];
  if (base === undefined) return null;
  const jitter = 0.9 + random() * 0.2;
  return Math.round(base * 1000 * scale * jitter);
}
