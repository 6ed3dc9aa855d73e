// Whether this phone can reach the service now. `navigator.onLine` says only that some network is
// there: with one bar, behind a captive portal or a dead access point it says "online" while every
// request fails. Where that decides what the page shows, it asks the service itself.
const HEALTH_PATH = "/api/health";

/** True when the service answered its health check within `timeoutMs`; false on no answer, an error or a non-2xx. */
export async function serviceReachable({ timeoutMs = 3_000, fetchImpl = fetch }: { timeoutMs?: number; fetchImpl?: typeof fetch } = {}): Promise<boolean> {
  // A controller and a timer, not AbortSignal.timeout: older phones' browsers (Safari before 16)
  // lack it, and a throw there would read as "unreachable" on every load.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetchImpl(HEALTH_PATH, { cache: "no-store", signal: controller.signal });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
