// React Query factories for the webhooks page; every request goes to the session-guarded
// dashboard proxy (/dashboard-api/webhooks…), never to the API with a token. Listings carry no
// secrets: those only come back from the create and rotate actions and stay in component state.
import { queryOptions } from "@tanstack/react-query";
import type { DeliveryPage, Webhook } from "./types";
import { DELIVERIES_PER_PAGE, deliveryPollInterval } from "./webhook-display";

const ENDPOINTS_POLL_MS = 15_000;

export class ProxyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function getJson<T>(path: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(`/dashboard-api/${path}`, { signal, cache: "no-store" });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new ProxyError(res.status, body?.detail ?? `The service answered ${res.status}.`);
  }
  return (await res.json()) as T;
}

export const webhookKeys = {
  all: ["webhooks"] as const,
  deliveries: (webhookId: string) => ["webhook-deliveries", webhookId] as const,
};

export const webhookListQuery = () =>
  queryOptions({
    queryKey: webhookKeys.all,
    queryFn: ({ signal }) => getJson<{ data: Webhook[] }>("webhooks", signal),
    // Failure streaks and automatic disabling change as the worker delivers.
    refetchInterval: ENDPOINTS_POLL_MS,
  });

export const deliveriesQuery = (webhookId: string, page: number) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(webhookId), page],
    queryFn: ({ signal }) => getJson<DeliveryPage>(`webhooks/${webhookId}/deliveries?page=${page}&per_page=${DELIVERIES_PER_PAGE}`, signal),
    refetchInterval: (query) => deliveryPollInterval(query.state.data?.data, Date.now()),
    placeholderData: (previous) => previous,
  });
