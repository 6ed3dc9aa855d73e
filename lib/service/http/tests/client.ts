// A small test client for the service: JSON in, parsed JSON out, plus operator shortcuts.
import type { Scope } from "@/lib/auth/scopes";
import type { Role } from "@/lib/db/schema";
import type { CreateMissionInput, Mission } from "@/lib/schemas/mission";
import { ADMIN_TOKEN, type TestService } from "./harness";

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export class TestClient {
  constructor(readonly service: Pick<TestService, "url">) {}

  async request<T = Record<string, unknown>>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${this.service.url}${path}`, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown) {
    return this.request<T>(method, `/api/admin/v1${path}`, { token: ADMIN_TOKEN, body });
  }

  async createOrg(name = "Test org"): Promise<string> {
    const res = await this.admin<{ id: string }>("POST", "/orgs", { name });
    if (res.status !== 201) throw new Error(`createOrg: ${res.status} ${res.text}`);
    return res.body.id;
  }

  async createClient(orgId: string, scopes: Scope[]): Promise<{ client_id: string; client_secret: string }> {
    const res = await this.admin<{ client_id: string; client_secret: string }>("POST", `/orgs/${orgId}/clients`, { name: "test client", scopes });
    if (res.status !== 201) throw new Error(`createClient: ${res.status} ${res.text}`);
    return res.body;
  }

  async token(client: { client_id: string; client_secret: string }, scope?: string): Promise<string> {
    const res = await this.request<{ access_token: string }>("POST", "/api/v1/auth/token", {
      body: { grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, ...(scope ? { scope } : {}) },
    });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
    return res.body.access_token;
  }

  /** A dashboard user (or another membership of an existing one) through the operator interface. */
  async createUser(orgId: string, user: { email: string; password: string; role: Role; name?: string }): Promise<{ id: string }> {
    const res = await this.admin<{ id: string }>("POST", `/orgs/${orgId}/users`, user);
    if (res.status !== 201) throw new Error(`createUser: ${res.status} ${res.text}`);
    return res.body;
  }

  /** A dashboard token for the user in the organisation, from the operator interface. */
  async dashboardToken(userId: string, orgId: string): Promise<{ access_token: string; scope: string; role: Role; expires_in: number }> {
    const res = await this.admin<{ access_token: string; scope: string; role: Role; expires_in: number }>("POST", "/dashboard/tokens", {
      user_id: userId,
      org_id: orgId,
    });
    if (res.status !== 200) throw new Error(`dashboardToken: ${res.status} ${res.text}`);
    return res.body;
  }

  /** A zoomer (field contributor) and its credentials (scope submissions:write). */
  async createZoomer(name = "Test zoomer"): Promise<{ id: string; client_id: string; client_secret: string }> {
    const res = await this.admin<{ id: string; client_id: string; client_secret: string }>("POST", "/zoomers", { name });
    if (res.status !== 201) throw new Error(`createZoomer: ${res.status} ${res.text}`);
    return res.body;
  }

  async revokeClient(clientId: string): Promise<void> {
    const res = await this.admin("DELETE", `/clients/${clientId}`);
    if (res.status !== 204) throw new Error(`revokeClient: ${res.status} ${res.text}`);
  }

  /** Creates a mission (defaults: a small square in Florence, 3 images) and returns it. */
  async createMission(token: string, fields: Partial<CreateMissionInput> = {}): Promise<Mission> {
    const res = await this.request<Mission>("POST", "/api/v1/missions", {
      token,
      body: { title: "Test mission", bounds: square(), required_images: 3, ...fields },
    });
    if (res.status !== 201) throw new Error(`createMission: ${res.status} ${res.text}`);
    return res.body;
  }

  /** A fresh organisation with a client holding the given scopes, and a token for it. */
  async partner(scopes: Scope[] = ["missions:read", "missions:write", "submissions:read", "webhooks:manage"]) {
    const orgId = await this.createOrg();
    const client = await this.createClient(orgId, scopes);
    return { orgId, client, token: await this.token(client) };
  }
}

export const square = (lng = 11.255, lat = 43.768, size = 0.005) => ({
  type: "Polygon" as const,
  coordinates: [
    [
      [lng, lat],
      [lng + size, lat],
      [lng + size, lat + size],
      [lng, lat + size],
      [lng, lat],
    ],
  ],
});
