// The OpenAPI document: valid OpenAPI 3.1, complete (every served route), and faithful to how the
// routes are protected (scopes, error responses, rate-limit headers, token URL).
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "@/lib/auth/scopes";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";

interface MediaType {
  schema?: { $ref?: string };
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}
interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}
interface SecurityScheme {
  type: string;
  flows?: { clientCredentials?: { tokenUrl: string; scopes: Record<string, string> } };
}
// A type alias (not an interface) so the document is assignable to the validator's Record<string, unknown>.
type OpenApiDocument = {
  openapi: string;
  info: { contact?: { name?: string; url?: string; email?: string } };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, SecurityScheme>; schemas: Record<string, { required?: string[] }> };
};

const MISSION_ROUTES: { method: string; path: string; scope: Scope }[] = [
  { method: "get", path: "/api/v1/missions", scope: "missions:read" },
  { method: "post", path: "/api/v1/missions", scope: "missions:write" },
  { method: "get", path: "/api/v1/missions/{id}", scope: "missions:read" },
  { method: "patch", path: "/api/v1/missions/{id}", scope: "missions:write" },
  { method: "post", path: "/api/v1/missions/{id}/cancel", scope: "missions:write" },
];

const OTHER_ROUTES = [
  "post /api/v1/auth/token",
  "get /api/v1/auth/jwks.json",
  "post /api/admin/v1/orgs",
  "post /api/admin/v1/orgs/{org_id}/clients",
  "delete /api/admin/v1/clients/{client_id}",
  "post /api/admin/v1/orgs/{org_id}/users",
  "post /api/admin/v1/orgs/{org_id}/api-keys",
  "post /api/admin/v1/zoomers",
  "post /api/admin/v1/dashboard/sign-in",
  "post /api/admin/v1/dashboard/users/lookup",
  "get /api/admin/v1/dashboard/users/{user_id}",
  "post /api/admin/v1/dashboard/tokens",
];

const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const PROBLEM_REF = "#/components/schemas/Problem";
/** Served but deliberately not operations of a document: the documents themselves. */
// The documents themselves, and the operational endpoints for load balancers and Prometheus (docs/operations.md).
// OPTIONS of the tus endpoint is the protocol's discovery (no token); the POST's description names it.
const NOT_DOCUMENTED = new Set([
  "get /api/v1/openapi.json",
  "get /api/admin/v1/openapi.json",
  "get /api/orders/v1/openapi.json",
  "get /api/ready",
  "get /api/metrics",
  "options /api/v1/field/uploads",
]);

let service: TestService;
/** The public document. */
let doc: OpenApiDocument;
/** The operator interface's document (admin token only). */
let operatorDoc: OpenApiDocument;

beforeAll(async () => {
  service = await startTestService();
  const api = new TestClient(service);
  const res = await api.request<OpenApiDocument>("GET", "/api/v1/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json\b/);
  doc = res.body;
  const operator = await api.admin<OpenApiDocument>("GET", "/openapi.json");
  expect(operator.status, operator.text).toBe(200);
  operatorDoc = operator.body;
});
afterAll(() => service.close());

const operationsOf = (d: OpenApiDocument) =>
  Object.entries(d.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ["get", "put", "post", "delete", "patch", "head", "options", "trace"].includes(key))
      .map((method) => `${method} ${path}`),
  );
const documentedOperations = () => [...operationsOf(doc), ...operationsOf(operatorDoc)];

function operation(method: string, path: string): Operation {
  const op = (path.startsWith("/api/admin/") ? operatorDoc : doc).paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
  return op;
}

describe("GET /api/v1/openapi.json", () => {
  it("names a support contact without a link back to the reference itself; the configured support page or address when there is one", async () => {
    const contact = doc.info.contact;
    expect(contact?.name).toBe("Photo Missions API support");
    expect(contact?.url).toBeUndefined();
    for (const [supportUrl, expected] of [
      ["https://support.photo-missions.example/api", { url: "https://support.photo-missions.example/api" }],
      ["mailto:api-support@photo-missions.example", { email: "api-support@photo-missions.example" }],
    ] as const) {
      const other = await startTestService({ supportUrl });
      try {
        const res = await new TestClient(other).request<OpenApiDocument>("GET", "/api/v1/openapi.json");
        expect(res.body.info.contact).toEqual({ name: "Photo Missions API support", ...expected });
      } finally {
        await other.close();
      }
    }
    // Two more services start here: on PGlite each opens its own database (seconds each on a loaded machine).
  }, 90_000);

  it.each(["public", "operator"])("the %s document is OpenAPI 3.1 and passes the OpenAPI schema validator", async (which) => {
    const d = which === "public" ? doc : operatorDoc;
    expect(d.openapi).toMatch(/^3\.1\.\d+$/);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(d));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("the public document leaves out the operator interface: no /api/admin/v1 path, no admin-token scheme, no operator-only schema", () => {
    expect(operationsOf(doc).filter((r) => r.includes("/api/admin/"))).toEqual([]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiKey", "oauth2"]);
    for (const name of ["DashboardSignIn", "DashboardToken", "CreateOrganisation"]) expect(Object.keys(doc.components.schemas)).not.toContain(name);
    expect(operationsOf(operatorDoc).every((r) => r.split(" ")[1]?.startsWith("/api/admin/v1/"))).toBe(true);
  });

  it("serves the operator document only with the admin token", async () => {
    const api = new TestClient(service);
    const anonymous = await api.request("GET", "/api/admin/v1/openapi.json");
    expect(anonymous.status).toBe(401);
    const { token } = await api.partner();
    const partner = await api.request("GET", "/api/admin/v1/openapi.json", { token });
    expect(partner.status).toBe(401);
  });

  it("documents the mission, token, JWKS and operator routes", () => {
    const documented = documentedOperations();
    for (const route of [...MISSION_ROUTES.map((r) => `${r.method} ${r.path}`), ...OTHER_ROUTES]) {
      expect(documented, route).toContain(route);
    }
  });

  it("documents every route the app serves, and nothing it does not serve", () => {
    const routes = service.runtime.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([^/]+)/g, "{$1}")}`);
    // HEAD beside a GET of the same path is implied by the GET (as most generators treat it).
    const served = new Set(routes.filter((r) => !NOT_DOCUMENTED.has(r) && !(r.startsWith("head ") && routes.includes(r.replace(/^head /, "get ")))));
    const documented = new Set(documentedOperations());
    expect(
      [...served].filter((r) => !documented.has(r)),
      "served but undocumented",
    ).toEqual([]);
    // A documented HEAD is served by the GET of its path (Hono answers HEAD with the GET handler).
    const servedOrImplied = (r: string) => served.has(r) || (r.startsWith("head ") && served.has(r.replace(/^head /, "get ")));
    expect(
      [...documented].filter((r) => !servedOrImplied(r)),
      "documented but not served",
    ).toEqual([]);
  });

  it("has an oauth2 client-credentials scheme whose tokenUrl is the token endpoint", () => {
    const scheme = doc.components.securitySchemes.oauth2;
    expect(scheme?.type).toBe("oauth2");
    const flow = scheme?.flows?.clientCredentials;
    expect(flow?.tokenUrl ?? "").toMatch(/\/api\/v1\/auth\/token$/);
    expect(flow?.tokenUrl).toBe(`${service.url}/api/v1/auth/token`);
    expect(Object.keys(flow?.scopes ?? {})).toEqual(expect.arrayContaining(["missions:read", "missions:write", "submissions:read", "webhooks:manage"]));
  });

  it("documents the Problem schema with type, title, status and code", () => {
    expect(doc.components.schemas.Problem?.required).toEqual(expect.arrayContaining(["type", "title", "status", "code"]));
  });

  it("needs no token for the token endpoint and accepts JSON and form bodies there", () => {
    const token = operation("post", "/api/v1/auth/token");
    expect(token.security ?? []).toEqual([]);
    expect(Object.keys(token.requestBody?.content ?? {}).sort()).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    expect(Object.keys(token.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "429"]));
  });

  it("protects every operator route with the admin token", () => {
    for (const route of OTHER_ROUTES.filter((r) => r.includes("/api/admin/v1/"))) {
      const [method = "", path = ""] = route.split(" ");
      expect(operation(method, path).security, route).toEqual([{ adminToken: [] }]);
    }
  });
});

describe.each(MISSION_ROUTES)("$method $path", ({ method, path, scope }) => {
  it(`needs oauth2 with scope ${scope}`, () => {
    expect(operation(method, path).security).toEqual([{ oauth2: [scope] }]);
  });

  it.each(["401", "403", "429"])("documents a %s problem+json response", (status) => {
    const response = operation(method, path).responses[status];
    expect(response, `${status} response`).toBeDefined();
    expect(response?.content?.["application/problem+json"]?.schema?.$ref).toBe(PROBLEM_REF);
  });

  it("documents the X-RateLimit-* headers on success, 403 and 429, and Retry-After on 429", () => {
    const { responses } = operation(method, path);
    const success = Object.entries(responses).find(([status]) => /^2\d\d$/.test(status));
    expect(success, "a 2xx response").toBeDefined();
    for (const [status, response] of [success ?? ["2xx", undefined], ["403", responses["403"]], ["429", responses["429"]]] as const) {
      expect(Object.keys(response?.headers ?? {}), `headers of ${status}`).toEqual(expect.arrayContaining(RATE_LIMIT_HEADERS));
    }
    expect(Object.keys(responses["429"]?.headers ?? {})).toContain("Retry-After");
  });
});

describe("rate-limit headers", () => {
  it("are documented on every response of every operation that needs a token, except 401 (refused before counting) and 5xx", () => {
    const missing: string[] = [];
    for (const route of documentedOperations()) {
      const [method = "", path = ""] = route.split(" ");
      const op = operation(method, path);
      if (!op.security?.some((s) => "oauth2" in s)) continue;
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === "401" || status.startsWith("5")) continue;
        const headers = Object.keys(response.headers ?? {});
        if (!RATE_LIMIT_HEADERS.every((h) => headers.includes(h))) missing.push(`${route} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the token endpoint's 429 carries Retry-After and the X-RateLimit-* headers", () => {
    const tooMany = operation("post", "/api/v1/auth/token").responses["429"];
    expect(Object.keys(tooMany?.headers ?? {})).toEqual(expect.arrayContaining([...RATE_LIMIT_HEADERS, "Retry-After"]));
  });
});

describe("every other operation under /api/v1 that needs a token", () => {
  it("states an oauth2 scope and documents 401, 403 and 429 problems with rate-limit headers", () => {
    const known = new Set(MISSION_ROUTES.map((r) => `${r.method} ${r.path}`));
    const others = documentedOperations().filter((r) => r.split(" ")[1]?.startsWith("/api/v1/") && !known.has(r) && !r.includes("/auth/"));
    for (const route of others) {
      const [method = "", path = ""] = route.split(" ");
      const op = operation(method, path);
      expect(op.security?.[0]?.oauth2?.length, `${route} has an oauth2 scope`).toBe(1);
      for (const status of ["401", "403", "429"]) {
        expect(op.responses[status]?.content?.["application/problem+json"]?.schema?.$ref, `${route} ${status}`).toBe(PROBLEM_REF);
      }
      expect(Object.keys(op.responses["429"]?.headers ?? {}), `${route} 429 headers`).toEqual(expect.arrayContaining([...RATE_LIMIT_HEADERS, "Retry-After"]));
    }
  });
});
