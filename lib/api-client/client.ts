import "server-only";
// The dashboard's one way to the REST API: a client typed from the service's OpenAPI document
// (lib/api-client/openapi-types.ts), authenticated with the organisation's cached token.
import createClient from "openapi-fetch";
import { env } from "@/lib/env";
import { dashboardToken, forgetDashboardToken, type TokenHolder } from "./dashboard-tokens";
import type { paths } from "./openapi-types";
import { serviceRequest } from "./transport";

export type ApiClient = ReturnType<typeof createClient<paths>>;

/** Calls the API as `holder`'s organisation and role; any path of the mission or order interface. */
export async function apiFetch(holder: TokenHolder, path: `/api/v1/${string}` | `/api/orders/v1/${string}`, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${await dashboardToken(holder)}`);
  const res = await serviceRequest(new Request(`${env.PUBLIC_ORIGIN}${path}`, { ...init, headers }));
  if (res.status === 401) forgetDashboardToken(holder.orgId, holder.role);
  return res;
}

export function apiClientFor(holder: TokenHolder): ApiClient {
  const client = createClient<paths>({ baseUrl: env.PUBLIC_ORIGIN, fetch: serviceRequest });
  client.use({
    async onRequest({ request }) {
      request.headers.set("authorization", `Bearer ${await dashboardToken(holder)}`);
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401) forgetDashboardToken(holder.orgId, holder.role);
      return response;
    },
  });
  return client;
}
