// The documents are made for code generation: every operation (and every webhook event) of every
// document has a stable camelCase operationId, unique across all documents, and a description;
// the servers and the OAuth tokenUrl are the deployment's public origin; and an off-the-shelf
// generator (openapi-typescript) turns them into clean operation names.
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";

interface Operation {
  operationId?: string;
  description?: string;
}
type Document = {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { securitySchemes?: Record<string, { flows?: { clientCredentials?: { tokenUrl: string } } }> };
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

let service: TestService;
const documents: Record<"public" | "orders" | "operator", Document> = {} as Record<"public" | "orders" | "operator", Document>;

beforeAll(async () => {
  service = await startTestService();
  const api = new TestClient(service);
  for (const [name, res] of [
    ["public", await api.request<Document>("GET", "/api/v1/openapi.json")],
    ["orders", await api.request<Document>("GET", "/api/orders/v1/openapi.json")],
    ["operator", await api.admin<Document>("GET", "/openapi.json")],
  ] as const) {
    expect(res.status, `${name}: ${res.text}`).toBe(200);
    documents[name] = res.body;
  }
});
afterAll(() => service.close());

function operationsOf(doc: Document): { key: string; op: Operation }[] {
  return [...Object.entries(doc.paths), ...Object.entries(doc.webhooks ?? {})].flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ key: `${method} ${path}`, op })),
  );
}

describe("operationIds and descriptions", () => {
  it("every operation of every document has a camelCase operationId and a description", () => {
    for (const [name, doc] of Object.entries(documents)) {
      const ops = operationsOf(doc);
      expect(ops.length, name).toBeGreaterThan(0);
      for (const { key, op } of ops) {
        expect(op.operationId, `${name}: ${key}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
        expect(op.description?.trim().length ?? 0, `${name}: ${key} has no description`).toBeGreaterThan(20);
      }
    }
  });

  it("no two operations share an operationId, within a document or across the public and operator documents", () => {
    const owners = new Map<string, string>();
    const clashes: string[] = [];
    // The order document is a view of the public one's /api/orders/v1 operations: same ids, same operations.
    for (const name of ["public", "operator"] as const) {
      for (const { key, op } of operationsOf(documents[name])) {
        const id = op.operationId ?? "";
        const owner = owners.get(id);
        if (owner) clashes.push(`${id}: ${owner} and ${key}`);
        owners.set(id, key);
      }
    }
    expect(clashes).toEqual([]);
    const ordersIds = operationsOf(documents.orders).map(({ op }) => op.operationId);
    expect(new Set(ordersIds).size).toBe(ordersIds.length);
    expect(ordersIds).toEqual(expect.arrayContaining(["createOrder", "confirmOrder", "listOrderPhotos"]));
  });

  it("keeps the names integrators' generated code already uses", () => {
    const ids = (doc: Document) => Object.fromEntries(operationsOf(doc).map(({ key, op }) => [key, op.operationId]));
    expect(ids(documents.public)).toMatchObject({
      "post /api/v1/auth/token": "requestAccessToken",
      "get /api/v1/missions": "listMissions",
      "post /api/v1/missions": "createMission",
      "get /api/v1/missions/{id}/submissions": "listMissionSubmissions",
      "get /api/v1/missions/{id}/export": "exportMission",
      "post /api/v1/webhooks": "createWebhook",
      "post /api/orders/v1/orders": "createOrder",
      "post submission.received": "onSubmissionReceived",
      "post photos.delivered": "onPhotosDelivered",
    });
    expect(ids(documents.orders)).toMatchObject({ "post /orders": "createOrder", "get /orders/{id}/photos": "listOrderPhotos" });
  });
});

describe("servers and tokenUrl", () => {
  it("use the deployment's public origin in every document", () => {
    expect(documents.public.servers?.[0]?.url).toBe(service.url);
    expect(documents.operator.servers?.[0]?.url).toBe(service.url);
    expect(documents.orders.servers?.[0]?.url).toBe(`${service.url}/api/orders/v1`);
    for (const name of ["public", "orders"] as const) {
      expect(documents[name].components.securitySchemes?.oauth2?.flows?.clientCredentials?.tokenUrl, name).toBe(`${service.url}/api/v1/auth/token`);
    }
  });
});

describe("openapi-typescript (an off-the-shelf generator)", () => {
  for (const name of ["public", "orders", "operator"] as const) {
    it(`names the ${name} document's operations by their operationIds`, async () => {
      const source = astToString(await openapiTS(JSON.stringify(documents[name])));
      const ids = operationsOf(documents[name])
        .filter(({ key }) => key.split(" ")[1]?.startsWith("/"))
        .map(({ op }) => op.operationId ?? "");
      for (const id of ids) {
        // An operation becomes a member of `operations`, and its path item refers to it by name.
        expect(source, id).toContain(`    ${id}: {`);
        expect(source, id).toContain(`operations["${id}"]`);
      }
      expect(source).not.toMatch(/operations\["(get|post|put|patch|delete)[A-Z_][^"]*(_|\/)/);
    });
  }
});
