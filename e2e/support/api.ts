// The operator and partner calls the e2e flow makes, over real HTTP to the Next-mounted service.
import { expect, type APIRequestContext } from "@playwright/test";
import { METRICS_TOKEN } from "./server";

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * GET as a well-behaved API client does: a 429 is waited out for its Retry-After (the dashboard
 * signed in beside a test spends the same organisation's per-minute budget), then asked again;
 * anything but 200 after that fails the test with the service's answer.
 */
export async function getJson<T>(request: APIRequestContext, path: string, token: string, deadlineMs = 90_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const res = await request.get(path, { headers: bearer(token) });
    if (res.status() === 429 && Date.now() < until) {
      const seconds = Number(res.headers()["retry-after"] ?? "1");
      await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(seconds, 1), 30) * 1000));
      continue;
    }
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as T;
  }
}

export async function createOrganisation(request: APIRequestContext, adminToken: string, name: string) {
  const res = await request.post("/api/admin/v1/orgs", { headers: bearer(adminToken), data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; name: string; plan: string };
}

export async function createPartnerClient(request: APIRequestContext, adminToken: string, orgId: string, scopes: string[]) {
  const res = await request.post(`/api/admin/v1/orgs/${orgId}/clients`, {
    headers: bearer(adminToken),
    data: { name: "e2e client", scopes },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { client_id: string; client_secret: string; scopes: string[] };
}

export async function clientCredentialsToken(request: APIRequestContext, client: { client_id: string; client_secret: string }) {
  const res = await request.post("/api/v1/auth/token", {
    data: { grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { access_token: string; token_type: string; expires_in: number; scope: string };
}

/**
 * How many requests the REST service has answered so far, by "METHOD /route/:pattern" (all
 * statuses), from its Prometheus metrics: the difference across a click is what the click cost.
 */
export async function apiRequestCounts(request: APIRequestContext): Promise<Map<string, number>> {
  const res = await request.get("/api/metrics", { headers: bearer(METRICS_TOKEN) });
  expect(res.status(), await res.text()).toBe(200);
  const counts = new Map<string, number>();
  for (const m of (await res.text()).matchAll(/^photo_missions_http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)) {
    const labels = Object.fromEntries([...(m[1] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    const key = `${labels.method} ${labels.route}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(m[2]));
  }
  return counts;
}
