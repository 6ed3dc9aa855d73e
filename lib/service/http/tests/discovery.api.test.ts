// OAuth discovery as an integrator's library does it: oauth4webapi (an off-the-shelf OAuth 2.0
// client) is given the issuer only, reads /.well-known/oauth-authorization-server, and gets a
// token from the endpoint it found; the token verifies against the keys at the discovered jwks_uri.
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";

let service: TestService;
let api: TestClient;
let client: { client_id: string; client_secret: string };

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  client = await api.createClient(await api.createOrg(), ["missions:read", "orders:read"]);
});
afterAll(() => service.close());

// The test service listens on plain http://127.0.0.1; the library refuses that unless told.
const insecure = { [oauth.allowInsecureRequests]: true };

async function discover(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(service.url);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
}

describe("GET /.well-known/oauth-authorization-server", () => {
  it("names the issuer of our tokens, the token endpoint, the keys, the grant, the client authentication methods and the scopes", async () => {
    const res = await api.request<Record<string, unknown>>("GET", "/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      issuer: service.url,
      token_endpoint: `${service.url}/api/v1/auth/token`,
      jwks_uri: `${service.url}/.well-known/jwks.json`,
      grant_types_supported: ["client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    });
    expect(res.body.scopes_supported).toEqual(expect.arrayContaining(["missions:read", "missions:write", "orders:read", "orders:write", "webhooks:manage"]));
  });

  it("serves the same key set at /.well-known/jwks.json as at /api/v1/auth/jwks.json", async () => {
    const wellKnown = await api.request<{ keys: { kid: string }[] }>("GET", "/.well-known/jwks.json");
    const own = await api.request<{ keys: { kid: string }[] }>("GET", "/api/v1/auth/jwks.json");
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.body.keys.length).toBeGreaterThan(0);
    expect(wellKnown.body).toEqual(own.body);
  });
});

describe("an off-the-shelf OAuth client (oauth4webapi) configured from discovery alone", () => {
  for (const [method, auth] of [
    ["client_secret_basic", (secret: string) => oauth.ClientSecretBasic(secret)],
    ["client_secret_post", (secret: string) => oauth.ClientSecretPost(secret)],
  ] as const) {
    it(`obtains a token with ${method} that the discovered keys verify and the API accepts`, async () => {
      const as = await discover();
      expect(as.token_endpoint).toBe(`${service.url}/api/v1/auth/token`);
      const oauthClient: oauth.Client = { client_id: client.client_id };
      const response = await oauth.clientCredentialsGrantRequest(as, oauthClient, auth(client.client_secret), { scope: "missions:read" }, insecure);
      const token = await oauth.processClientCredentialsResponse(as, oauthClient, response);
      expect(token.token_type.toLowerCase()).toBe("bearer");
      expect(token.scope).toBe("missions:read");

      const { payload, protectedHeader } = await jwtVerify(token.access_token, createRemoteJWKSet(new URL(as.jwks_uri ?? "")), {
        issuer: as.issuer,
        typ: "at+jwt",
      });
      expect(protectedHeader.typ).toBe("at+jwt");
      expect(payload.client_id).toBe(client.client_id);

      const missions = await api.request("GET", "/api/v1/missions", { token: token.access_token });
      expect(missions.status).toBe(200);
    });
  }

  it("surfaces the token endpoint's OAuth error for a wrong secret", async () => {
    const as = await discover();
    const oauthClient: oauth.Client = { client_id: client.client_id };
    const response = await oauth.clientCredentialsGrantRequest(as, oauthClient, oauth.ClientSecretPost("wrong"), {}, insecure);
    await expect(oauth.processClientCredentialsResponse(as, oauthClient, response)).rejects.toMatchObject({ error: "invalid_client" });
  });
});
