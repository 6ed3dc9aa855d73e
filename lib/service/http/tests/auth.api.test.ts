// The token endpoint (OAuth 2.0 client credentials), the shape of the access tokens it issues, and
// the refusal of every kind of bad token on a protected route.
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { ClientCredentials } from "simple-oauth2";
import { hashSecret } from "@/lib/auth/secrets";
import { apiClients } from "@/lib/db/schema";
import { createId, createSecret } from "@/lib/ids/create-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectBearerChallenge, expectProblem } from "./assertions";
import { TestClient, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";
import { claimsOf, decodeJwt, signedByStranger, signWithServiceKeys, unsignedCopy, withTamperedPayload, withTamperedSignature } from "./jwt";

const TOKEN_PATH = "/api/v1/auth/token";
const PROTECTED = "/api/v1/missions";

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

interface OAuthErrorBody {
  error: string;
  error_description: string;
}

let service: TestService;
let api: TestClient;
let orgId: string;
/** A client holding missions:read and missions:write, used where any valid client will do. */
let client: { client_id: string; client_secret: string };

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  orgId = await api.createOrg("Auth tests");
  client = await api.createClient(orgId, ["missions:read", "missions:write"]);
});
afterAll(() => service.close());

/** A fresh client of the test organisation (the token endpoint limits requests per client). */
const freshClient = () => api.createClient(orgId, ["missions:read", "missions:write", "submissions:read"]);

/** RFC 6749 §2.3.1: id and secret are form-encoded, joined by a colon, then base64-encoded. */
function basic(id: string, secret: string, encode: (s: string) => string = encodeURIComponent): string {
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`, "utf8").toString("base64")}`;
}

/** Percent-encodes every byte that is not a letter or digit: still valid form encoding. */
const encodeEveryByte = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) => (/[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function postForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return api.request<TokenBody & OAuthErrorBody>("POST", TOKEN_PATH, {
    rawBody: form(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

function postJson(body: unknown) {
  return api.request<TokenBody & OAuthErrorBody>("POST", TOKEN_PATH, { body });
}

function expectTokenResponse(res: ApiResponse<TokenBody>, scope: string) {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json\b/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.body.token_type).toBe("Bearer");
  expect(res.body.expires_in).toBe(86400);
  expect(res.body.scope.split(" ").sort()).toEqual(scope.split(" ").sort());
  expect(res.body.access_token.split(".")).toHaveLength(3);
}

function expectOAuthError(res: ApiResponse<OAuthErrorBody>, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json\b/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.body.error).toBe(error);
  expect(typeof res.body.error_description).toBe("string");
  expect(res.text).not.toMatch(/\n\s*at |node_modules|\.ts:\d+/);
}

describe("POST /auth/token – accepted requests", () => {
  it("accepts the spec's JSON body", async () => {
    const res = await postJson({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, scope: "missions:read" });
    expectTokenResponse(res, "missions:read");
  });

  it("accepts the standard form body with client authentication in the body", async () => {
    const res = await postForm({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret, scope: "missions:write" });
    expectTokenResponse(res, "missions:write");
  });

  it("accepts HTTP Basic with form-encoded id and secret (RFC 6749 §2.3.1)", async () => {
    const c = await freshClient();
    const plain = await postForm({ grant_type: "client_credentials", scope: "missions:read" }, { authorization: basic(c.client_id, c.client_secret) });
    expectTokenResponse(plain, "missions:read");
    // Every byte percent-encoded (e.g. "_" as %5F) is still the same credentials once form-decoded.
    expect(encodeEveryByte(c.client_id)).not.toBe(c.client_id);
    const encoded = await postForm({ grant_type: "client_credentials" }, { authorization: basic(c.client_id, c.client_secret, encodeEveryByte) });
    expectTokenResponse(encoded, "missions:read missions:write submissions:read");
    expect(decodeJwt(encoded.body.access_token).payload.client_id).toBe(c.client_id);
  });

  it("refuses HTTP Basic and a body secret together (invalid_request)", async () => {
    const res = await postForm(
      { grant_type: "client_credentials", client_secret: client.client_secret },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    expectOAuthError(res, 400, "invalid_request");
  });

  it("grants exactly the scopes asked for", async () => {
    const c = await freshClient();
    const res = await postJson({
      grant_type: "client_credentials",
      client_id: c.client_id,
      client_secret: c.client_secret,
      scope: "submissions:read missions:read",
    });
    expectTokenResponse(res, "missions:read submissions:read");
    expect(String(decodeJwt(res.body.access_token).payload.scope).split(" ").sort()).toEqual(["missions:read", "submissions:read"]);
  });

  it("grants all of the client's scopes when scope is omitted", async () => {
    const c = await freshClient();
    const res = await postJson({ grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret });
    expectTokenResponse(res, "missions:read missions:write submissions:read");
  });
});

describe("POST /auth/token – errors", () => {
  it("missing grant_type → 400 invalid_request", async () => {
    expectOAuthError(await postJson({ client_id: client.client_id, client_secret: client.client_secret }), 400, "invalid_request");
  });

  it.each(["password", "authorization_code", "urn:ietf:params:oauth:grant-type:jwt-bearer"])(
    "grant_type %s → 400 unsupported_grant_type",
    async (grantType) => {
      expectOAuthError(
        await postForm({ grant_type: grantType, client_id: client.client_id, client_secret: client.client_secret }),
        400,
        "unsupported_grant_type",
      );
    },
  );

  it("unknown client → 401 invalid_client, with a Basic challenge only when Basic was used", async () => {
    const inBody = await postJson({ grant_type: "client_credentials", client_id: "cli_doesnotexist", client_secret: "cs_nope" });
    expectOAuthError(inBody, 401, "invalid_client");
    expect(inBody.headers.get("www-authenticate")).toBeNull();

    const byBasic = await postForm({ grant_type: "client_credentials" }, { authorization: basic("cli_doesnotexist", "cs_nope") });
    expectOAuthError(byBasic, 401, "invalid_client");
    expect(byBasic.headers.get("www-authenticate") ?? "").toMatch(/^Basic\b/);
  });

  it("wrong secret → 401 invalid_client, with a Basic challenge only when Basic was used", async () => {
    const inBody = await postJson({ grant_type: "client_credentials", client_id: client.client_id, client_secret: `${client.client_secret}x` });
    expectOAuthError(inBody, 401, "invalid_client");
    expect(inBody.headers.get("www-authenticate")).toBeNull();

    const byBasic = await postForm({ grant_type: "client_credentials" }, { authorization: basic(client.client_id, `${client.client_secret}x`) });
    expectOAuthError(byBasic, 401, "invalid_client");
    expect(byBasic.headers.get("www-authenticate") ?? "").toMatch(/^Basic\b/);
  });

  it("revoked client → 401 invalid_client, whichever way it authenticates", async () => {
    const c = await freshClient();
    await api.revokeClient(c.client_id);
    const inBody = await postJson({ grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret });
    expectOAuthError(inBody, 401, "invalid_client");
    expect(inBody.headers.get("www-authenticate")).toBeNull();
    const byBasic = await postForm({ grant_type: "client_credentials" }, { authorization: basic(c.client_id, c.client_secret) });
    expectOAuthError(byBasic, 401, "invalid_client");
    expect(byBasic.headers.get("www-authenticate") ?? "").toMatch(/^Basic\b/);
  });

  it("no client authentication at all → 401 invalid_client (RFC 6749 §5.2)", async () => {
    expectOAuthError(await postForm({ grant_type: "client_credentials" }), 401, "invalid_client");
  });

  it("a scope beyond the client's → 400 invalid_scope", async () => {
    const reader = await api.createClient(orgId, ["missions:read"]);
    const res = await postJson({
      grant_type: "client_credentials",
      client_id: reader.client_id,
      client_secret: reader.client_secret,
      scope: "missions:read missions:write",
    });
    expectOAuthError(res, 400, "invalid_scope");
  });

  it("a zoomer-only scope for a partner client → 400 invalid_scope", async () => {
    const res = await postJson({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: "submissions:write",
    });
    expectOAuthError(res, 400, "invalid_scope");
  });

  it("an unknown scope → 400 invalid_scope", async () => {
    const res = await postJson({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: "missions:read missions:delete",
    });
    expectOAuthError(res, 400, "invalid_scope");
  });

  it("malformed JSON → 400 invalid_request", async () => {
    const res = await api.request<OAuthErrorBody>("POST", TOKEN_PATH, {
      rawBody: `{"grant_type": "client_credentials", "client_id": `,
      headers: { "content-type": "application/json" },
    });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("an unsupported content type → 415", async () => {
    const res = await api.request<OAuthErrorBody>("POST", TOKEN_PATH, {
      rawBody: `grant_type=client_credentials&client_id=${client.client_id}&client_secret=${client.client_secret}`,
      headers: { "content-type": "text/plain" },
    });
    expectOAuthError(res, 415, "invalid_request");
  });
});

describe("POST /auth/token – never a dashboard token", () => {
  /** A partner client row as an old or hand-edited database might hold it: listing clients:manage. */
  async function clientRow(kind: "partner" | "dashboard", scopes: string[]) {
    const id = createId("client");
    const secret = createSecret("cs");
    await service.runtime.ctx.db.insert(apiClients).values({ id, kind, orgId, name: `${kind} row`, scopes, secretHash: hashSecret(secret) });
    return { client_id: id, client_secret: secret };
  }

  it("does not grant clients:manage to a partner client, even one whose row lists it", async () => {
    const c = await clientRow("partner", ["missions:read", "clients:manage"]);
    const all = await postJson({ grant_type: "client_credentials", ...c });
    expectTokenResponse(all, "missions:read");
    expect(String(decodeJwt(all.body.access_token).payload.scope)).not.toContain("clients:manage");
    const asked = await postJson({ grant_type: "client_credentials", ...c, scope: "clients:manage" });
    expectOAuthError(asked, 400, "invalid_scope");
    const ordinary = await postJson({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: "missions:read clients:manage",
    });
    expectOAuthError(ordinary, 400, "invalid_scope");
  });

  it("ignores a kind parameter: its tokens carry no kind claim and get the partner rate limit", async () => {
    const c = await freshClient();
    const res = await postJson({ grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret, kind: "dashboard" });
    expectTokenResponse(res, "missions:read missions:write submissions:read");
    expect(decodeJwt(res.body.access_token).payload).not.toHaveProperty("kind");
    const call = await api.request("GET", PROTECTED, { token: res.body.access_token });
    expect(call.status, call.text).toBe(200);
    expect(call.headers.get("x-ratelimit-limit")).toBe("60");
  });

  it("refuses a dashboard client even with its secret (401 invalid_client)", async () => {
    const c = await clientRow("dashboard", ["missions:read"]);
    expectOAuthError(await postJson({ grant_type: "client_credentials", ...c }), 401, "invalid_client");
  });

  it("refuses a partner token with a kind claim added (signature kept)", async () => {
    const c = await freshClient();
    const token = await api.token(c, "missions:read");
    const res = await api.request("GET", PROTECTED, { token: withTamperedPayload(token, { kind: "dashboard" }) });
    expectProblem(res, 401, "invalid_token");
  });
});

describe("access token shape", () => {
  let issued: TokenBody;

  beforeAll(async () => {
    const res = await postJson({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret });
    expectTokenResponse(res, "missions:read missions:write");
    issued = res.body;
  });

  it("has an RFC 9068 header: typ at+jwt, alg EdDSA and a kid published in the JWKS", async () => {
    const { header } = decodeJwt(issued.access_token);
    expect(header.typ).toBe("at+jwt");
    expect(header.alg).toBe("EdDSA");
    expect(typeof header.kid).toBe("string");

    const jwks = await api.request<JSONWebKeySet>("GET", "/api/v1/auth/jwks.json");
    expect(jwks.status).toBe(200);
    const key = jwks.body.keys.find((k) => k.kid === header.kid);
    expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", kid: header.kid });
    for (const k of jwks.body.keys) expect(k, "no private key material in the JWKS").not.toHaveProperty("d");
  });

  it("carries iss, aud, sub, client_id, scope, org, iat, exp and jti, with a 24-hour lifetime", () => {
    const { payload } = decodeJwt(issued.access_token);
    const now = Math.floor(Date.now() / 1000);
    expect(payload).toMatchObject({
      iss: service.url,
      aud: `${service.url}/api/v1`,
      sub: client.client_id,
      client_id: client.client_id,
      org: orgId,
    });
    expect(String(payload.scope).split(" ").sort()).toEqual(["missions:read", "missions:write"]);
    expect(typeof payload.jti).toBe("string");
    expect(typeof payload.iat).toBe("number");
    expect(typeof payload.exp).toBe("number");
    expect(Math.abs(Number(payload.iat) - now)).toBeLessThan(60);
    expect(Number(payload.exp) - Number(payload.iat)).toBe(86400);
  });

  it("a zoomer's token carries the zoomer's id and name (cut to 40 characters); a partner's has neither", async () => {
    const create = async (name: string) => {
      const res = await api.admin<{ id: string; client_id: string; client_secret: string }>("POST", "/zoomers", { name });
      expect(res.status).toBe(201);
      return res.body;
    };
    const ana = await create("Ana Lúcia");
    const anaToken = await postJson({ grant_type: "client_credentials", client_id: ana.client_id, client_secret: ana.client_secret });
    expect(anaToken.status).toBe(200);
    expect(decodeJwt(anaToken.body.access_token).payload).toMatchObject({ zoomer: ana.id, zoomer_name: "Ana Lúcia" });

    // 45 letters written as e + combining acute (one grapheme, two code points each): cut whole.
    const long = await create("e\u0301".repeat(45));
    const longToken = await postJson({ grant_type: "client_credentials", client_id: long.client_id, client_secret: long.client_secret });
    expect(decodeJwt(longToken.body.access_token).payload.zoomer_name).toBe(`${"e\u0301".repeat(39)}…`);

    expect(decodeJwt(issued.access_token).payload).not.toHaveProperty("zoomer");
    expect(decodeJwt(issued.access_token).payload).not.toHaveProperty("zoomer_name");
  });

  it("verifies against the published JWKS with an ordinary JWT library", async () => {
    const jwks = await api.request<JSONWebKeySet>("GET", "/api/v1/auth/jwks.json");
    const { payload, protectedHeader } = await jwtVerify(issued.access_token, createLocalJWKSet(jwks.body), {
      issuer: service.url,
      audience: `${service.url}/api/v1`,
      typ: "at+jwt",
    });
    expect(protectedHeader.alg).toBe("EdDSA");
    expect(payload.client_id).toBe(client.client_id);
  });

  it("gives every token its own jti", async () => {
    const other = await postJson({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret });
    expect(decodeJwt(other.body.access_token).payload.jti).not.toBe(decodeJwt(issued.access_token).payload.jti);
  });
});

describe("token rejection on a protected route", () => {
  /** A genuine missions:read token; every forged token below is derived from it. */
  let genuine: string;

  beforeAll(async () => {
    genuine = await api.token(client, "missions:read");
  });

  async function expectInvalidToken(token: string) {
    const res = await api.request("GET", PROTECTED, { token });
    expectProblem(res, 401, "invalid_token");
    expectBearerChallenge(res, "invalid_token");
    expect(res.headers.get("x-ratelimit-limit"), "a refused token is not counted as the client's request").toBeNull();
  }

  it("accepts the genuine token (the control for the cases below)", async () => {
    const res = await api.request("GET", PROTECTED, { token: genuine });
    expect(res.status, res.text).toBe(200);
  });

  it("refuses an expired token", async () => {
    const longAgo = Math.floor(Date.now() / 1000) - 3 * 86400;
    const { token } = await service.runtime.ctx.keys.sign(claimsOf(genuine), { now: longAgo });
    expect(Number(decodeJwt(token).payload.exp)).toBeLessThan(Date.now() / 1000);
    await expectInvalidToken(token);
  });

  it("refuses a token whose payload was changed (scope widened, signature kept)", async () => {
    const tampered = withTamperedPayload(genuine, { scope: "missions:read missions:write" });
    expect(decodeJwt(tampered).payload.scope).toBe("missions:read missions:write");
    await expectInvalidToken(tampered);
    // Had it been accepted it would write; make sure it cannot.
    const write = await api.request("POST", `${PROTECTED}`, { token: tampered, body: {} });
    expect(write.status).toBe(401);
  });

  it("refuses a token whose signature was changed", async () => {
    await expectInvalidToken(withTamperedSignature(genuine));
  });

  it("refuses an alg: none token", async () => {
    const none = unsignedCopy(genuine);
    expect(decodeJwt(none).header.alg).toBe("none");
    await expectInvalidToken(none);
  });

  it("refuses a token signed by another Ed25519 key under the service's kid", async () => {
    const forged = await signedByStranger(genuine);
    expect(decodeJwt(forged).header.kid).toBe(decodeJwt(genuine).header.kid);
    await expectInvalidToken(forged);
  });

  it("refuses a token for another audience", async () => {
    const token = await signWithServiceKeys(service, claimsOf(genuine), { audience: "https://evil.example/api/v1" });
    expect(decodeJwt(token).payload.aud).toBe("https://evil.example/api/v1");
    await expectInvalidToken(token);
  });

  it("refuses a token from another issuer", async () => {
    const token = await signWithServiceKeys(service, claimsOf(genuine), { issuer: "https://evil.example" });
    expect(decodeJwt(token).payload.iss).toBe("https://evil.example");
    await expectInvalidToken(token);
  });

  it("refuses a token that is not a JWT at all", async () => {
    await expectInvalidToken("not-a-jwt");
  });

  it("refuses the tokens of a revoked client at once", async () => {
    const c = await freshClient();
    const token = await api.token(c, "missions:read");
    expect((await api.request("GET", PROTECTED, { token })).status).toBe(200);
    await api.revokeClient(c.client_id);
    await expectInvalidToken(token);
  });

  it.each(["developer", "enterprise"] as const)(
    "refuses a revoked client's tokens at once on the order interface too (%s plan: counted or not)",
    async (plan) => {
      const orgId = await api.createOrg(`Revoked orders ${plan}`);
      expect((await api.admin("PATCH", `/orgs/${orgId}`, { plan })).status).toBe(200);
      const c = await api.createClient(orgId, ["orders:read"]);
      const token = await api.token(c);
      expect((await api.request("GET", "/api/orders/v1/orders", { token })).status).toBe(200);
      await api.revokeClient(c.client_id);
      const res = await api.request("GET", "/api/orders/v1/orders", { token });
      expectProblem(res, 401, "invalid_token");
      expectBearerChallenge(res, "invalid_token");
    },
  );

  it("answers a request without Authorization with 401 unauthorized and a bare Bearer challenge", async () => {
    const res = await api.request("GET", PROTECTED);
    expectProblem(res, 401, "unauthorized");
    expectBearerChallenge(res);
    expect(res.headers.get("www-authenticate"), "RFC 6750 §3.1: no error code when no credentials were sent").not.toContain("error=");
  });

  it("answers a non-Bearer scheme with 401 unauthorized and a Bearer challenge", async () => {
    const res = await api.request("GET", PROTECTED, { headers: { authorization: basic(client.client_id, client.client_secret) } });
    expectProblem(res, 401, "unauthorized");
    expectBearerChallenge(res);
  });
});

describe("an off-the-shelf OAuth client (simple-oauth2)", () => {
  const oauthClient = (id: string, secret: string, authorizationMethod: "header" | "body") =>
    new ClientCredentials({
      client: { id, secret },
      auth: { tokenHost: service.url, tokenPath: TOKEN_PATH },
      options: { authorizationMethod },
    });

  it.each(["header", "body"] as const)("gets a token with authorizationMethod %s and calls the API with it", async (method) => {
    const c = await freshClient();
    const accessToken = await oauthClient(c.client_id, c.client_secret, method).getToken({ scope: "missions:read" });
    expect(accessToken.token.token_type).toBe("Bearer");
    expect(accessToken.token.scope).toBe("missions:read");
    expect(accessToken.expired()).toBe(false);
    const token = accessToken.token.access_token;
    expect(typeof token).toBe("string");
    const res = await api.request("GET", PROTECTED, { token: String(token) });
    expect(res.status, res.text).toBe(200);
  });

  it.each(["header", "body"] as const)("throws on a wrong secret (authorizationMethod %s)", async (method) => {
    const c = await freshClient();
    await expect(oauthClient(c.client_id, `${c.client_secret}x`, method).getToken({})).rejects.toThrow(/401|Unauthorized/i);
  });
});
