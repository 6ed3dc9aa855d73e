// Rate limits count in fixed windows aligned to the clock: a test that straddles a window's end
// sees its counter restart. Shared by the rate-limit tests of the API and of the dashboard.
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Waits, when needed, until at least `neededSeconds` are left in the current fixed window of
 * `windowSeconds`. The wait can be that long: a test calling this needs a timeout of
 * `neededSeconds` plus its own work (a 30-second wait in a 30-second test was a CI flake).
 */
export async function awayFromWindowEnd(windowSeconds: number, neededSeconds: number): Promise<void> {
  const left = windowSeconds - ((Date.now() / 1000) % windowSeconds);
  if (left < neededSeconds) await sleep(Math.ceil(left * 1000) + 50);
}
