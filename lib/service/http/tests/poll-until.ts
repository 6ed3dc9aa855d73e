// Waiting in API tests for what the service does in the background (a worker, a scheduler, a
// delivery): read until a condition holds, or fail with the last value read.

/** Calls `read` every `everyMs` until `done` holds for its value; throws with the last value after `timeoutMs`. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms; last value ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
