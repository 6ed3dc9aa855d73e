// The operator and partner calls the e2e flow makes, over real HTTP to the Next-mounted service.
import { expect, type APIRequestContext } from "@playwright/test";

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

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
