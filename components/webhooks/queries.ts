// React Query factories for the webhooks page; every request goes to the session-guarded
// dashboard proxy (/dashboard-api/webhooks…), never to the API with a token. Listings carry no
// secrets: those only come back from the create and rotate actions and stay in component state.
import { queryOptions } from "@tanstack/react-query";
import { proxyJson } from "@/components/dashboard/proxy-json";
import type { DeliveryPage, Webhook } from "./types";
import { DELIVERIES_PER_PAGE, deliveryPollInterval } from "./webhook-display";

const ENDPOINTS_POLL_MS = 15_000;

export const webhookKeys = {
  all: ["webhooks"] as const,
  deliveries: (webhookId: string) => ["webhook-deliveries", webhookId] as const,
};

export const webhookListQuery = () =>
  queryOptions({
    queryKey: webhookKeys.all,
    queryFn: ({ signal }) => proxyJson<{ data: Webhook[] }>("webhooks", signal),
    // Failure streaks and automatic disabling change as the worker delivers.
    refetchInterval: ENDPOINTS_POLL_MS,
  });

export const deliveriesQuery = (webhookId: string, page: number) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(webhookId), page],
    queryFn: ({ signal }) => proxyJson<DeliveryPage>(`webhooks/${webhookId}/deliveries?page=${page}&per_page=${DELIVERIES_PER_PAGE}`, signal),
    refetchInterval: (query) => deliveryPollInterval(query.state.data?.data, Date.now()),
    placeholderData: (previous) => previous,
  });
