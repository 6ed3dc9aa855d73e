// Whether this phone can reach the service now. `navigator.onLine` says only that some network is
// there: with one bar, behind a captive portal or a dead access point it says "online" while every
// request fails. Where that decides what the page shows, it asks the service itself.
const HEALTH_PATH = "/api/health";

/** True when the service answered its health check within `timeoutMs`; false on no answer, an error or a non-2xx. */
export async function serviceReachable({ timeoutMs = 3_000, fetchImpl = fetch }: { timeoutMs?: number; fetchImpl?: typeof fetch } = {}): Promise<boolean> {
  try {
    const res = await fetchImpl(HEALTH_PATH, { cache: "no-store", signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
