// How client components read through the session-guarded dashboard proxy (/dashboard-api/…):
// never the API with a token. A failed answer becomes a ProxyError with the API's detail.
export class ProxyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function proxyJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`/dashboard-api/${path}`, { signal, cache: "no-store" });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new ProxyError(res.status, body?.detail ?? `The service answered ${res.status}.`);
  }
  return (await res.json()) as T;
}
