// The documents must say what the API enforces — no more, no less — so that a client generated from
// them sends what the API accepts. Checked mechanically for every operation whose body or query
// the validator checks: the route's zod schema and the document's JSON Schema (evaluated by Ajv)
// must agree on a valid example and on probes made from it — each member removed (is it really
// optional?), an unknown member added, each string made huge, each array made huge, each number
// made huge or negative (is every enforced limit in the schema?). Routes whose bodies are read by
// hand (token, multipart intake) have their own tests in openapi-limits.api.test.ts.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { square, TestClient } from "./client";
import { startTestService, type TestService } from "./harness";

type Json = unknown;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Record<string, unknown>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
}
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

const ORDER_BODY = {
  client_reference: "q3-florence",
  category: "cultural_exterior",
  description: "Façades",
  requirements: { angles: ["front"], time_of_day: "daylight", minimum_crowd: "moderate", brand_match: "Acme" },
  locations: [{ location_id: "loc_duomo", name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 }, requirements: { angles: ["front", "entrance"] } }],
  recurring: { enabled: false },
  delivery: { webhook_url: "https://93.184.216.34/orders" },
};

/** A valid body for every operation that takes JSON; a new operation must add one here. */
const VALID_BODIES: Record<string, Json> = {
  "post /api/v1/missions": {
    title: "Ponte Vecchio",
    description: "Both banks.",
    bounds: square(),
    required_images: 3,
    qa: {
      min_short_edge_px: 480,
      min_sharpness: 40,
      min_brightness: 30,
      max_brightness: 230,
      location_tolerance_m: 25,
      max_accuracy_m: 100,
      capture_time_tolerance_s: 900,
      max_clock_skew_s: 300,
      duplicate_max_distance: 4,
    },
  },
  "patch /api/v1/missions/{id}": { title: "Renamed", description: "d", bounds: square(), required_images: 4 },
  "post /api/v1/webhooks": { url: "https://93.184.216.34/hook", events: ["mission.created"], description: "ERP" },
  "patch /api/v1/webhooks/{id}": { url: "https://93.184.216.34/hook", events: ["*"], description: "ERP", enabled: false },
  "post /api/v1/clients": { name: "Warehouse sync", scopes: ["missions:read"] },
  "post /api/v1/api-keys": { name: "ERP orders" },
  "post /api/admin/v1/orgs": { name: "Acme", plan: "business" },
  "post /api/admin/v1/orgs/{org_id}/clients": { name: "backend", scopes: ["missions:read"] },
  "post /api/admin/v1/orgs/{org_id}/users": { email: "ada@example.com", password: "correct horse battery", role: "admin", name: "Ada" },
  "post /api/admin/v1/orgs/{org_id}/api-keys": { name: "ERP" },
  "post /api/admin/v1/zoomers": { name: "Giulia" },
  "post /api/admin/v1/dashboard/sign-in": { email: "ada@example.com", password: "correct horse battery" },
  "post /api/admin/v1/dashboard/users/lookup": { email: "ada@example.com" },
  "post /api/admin/v1/dashboard/tokens": { user_id: "user_06h0m4b7yq4r6t9v0wxyzab3k", org_id: "org_06h0m4b7yq4r6t9v0wxyzab3k" },
  "patch /api/admin/v1/dashboard/users/{user_id}": { locale: "fr" },
  "patch /api/admin/v1/orgs/{org_id}": { name: "Acme", plan: "business", card_on_file: "pm_card_visa" },
  "put /api/admin/v1/price-list": {
    currency: "EUR",
    per_photo_cents: { cultural_exterior: 400, restaurant_ambiance: 600, beach_facility_status: 500, retail_compliance: 700, event_venue_status: 800 },
    time_of_day_surcharge_percent: { daylight: 0, midday: 10, evening: 25 },
    analysis_surcharge_cents: { minimum_crowd: 100, brand_match: 150 },
    recurring_discount_percent: { daily: 0, weekly: 15, monthly: 10 },
  },
  // Cross-member rules (angles here or order-wide; a frequency when recurring) are not JSON
  // Schema: the example asks for angles in both places and a one-off order, so that removing
  // any one member is allowed by both.
  "post /api/orders/v1/orders": ORDER_BODY,
  "post /api/orders/v1/orders/quote": ORDER_BODY,
  "post /api/orders/v1/orders/feasibility": ORDER_BODY,
  "post /api/orders/v1/orders/{id}/confirm": { payment_method: "card", payment_method_id: "pm_card_visa" },
  "post /api/orders/v1/orders/{id}/payments/{payment_id}/authenticate": { authenticated: true },
  "post /api/orders/v1/orders/{id}/cancel": { reason: "Budget cut" },
  "post /api/orders/v1/orders/{id}/locations/{location_id}/cancel": { cycle_index: 0, reason: "Too late for the campaign" },
  "post /api/orders/v1/delivery-test": { url: "https://93.184.216.34/hooks/orders" },
  "post /api/orders/v1/orders/{id}/photos/{photo_id}/retake": { reason: "A van hides the door." },
  "post /api/orders/v1/orders/{id}/photos/{photo_id}/review": { decision: "reject", reason: "Taken somewhere else." },
  "post /api/orders/v1/drafts": { body: { category: "cultural_exterior" }, step: "locations", order_id: "ord_06h0m4b7yq4r6t9v0wxyzab3k" },
  "put /api/orders/v1/drafts/{id}": { body: { category: "cultural_exterior" }, step: "what" },
  "post /api/orders/v1/drafts/{id}/place": { version: 1, payment_method: "card", payment_method_id: "pm_card_visa" },
};

/** Operations whose handlers read the request themselves (see openapi-limits.api.test.ts). */
const READ_BY_HAND = new Set(["post /api/v1/auth/token", "post /api/v1/missions/{id}/submissions"]);

/** Valid values of required query parameters, so each parameter can be probed on its own. */
const VALID_QUERIES: Record<string, Record<string, string>> = {
  "get /cdn/images/{image_id}/{variant}": { exp: "1893456000", sig: "a".repeat(64) },
};

/** The query schema as seen with the other parameters valid: probes replace one parameter. */
function withBase(schema: unknown, base: Record<string, string>): z.ZodType | undefined {
  if (typeof schema !== "object" || schema === null || !("safeParse" in schema)) return undefined;
  const zod = schema as z.ZodType;
  return { safeParse: (value: Record<string, string>) => zod.safeParse({ ...base, ...value }) } as unknown as z.ZodType;
}

const HUGE_STRING = "x".repeat(100_000);
const HUGE_ARRAY = 20_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Probes of a value: every member removed, an unknown one added, leaves and arrays blown up. */
function probesOf(value: Json, pointer = ""): { pointer: string; label: string; replace: (root: Json) => Json }[] {
  const out: { pointer: string; label: string; replace: (root: Json) => Json }[] = [];
  const at = (root: Json, path: (string | number)[], edit: (parent: Record<string, unknown> | unknown[], key: string | number) => void): Json => {
    const copy = structuredClone(root);
    let node: unknown = copy;
    for (const key of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[key];
    edit(node as Record<string, unknown>, path.at(-1) ?? "");
    return copy;
  };
  const walk = (node: Json, path: (string | number)[]) => {
    const here = path.map((p) => `/${p}`).join("") || "(root)";
    if (isObject(node)) {
      for (const key of Object.keys(node)) {
        out.push({
          pointer: `${here}/${key}`,
          label: "removed",
          replace: (root) => at(root, [...path, key], (parent, k) => delete (parent as Record<string, unknown>)[k]),
        });
      }
      out.push({
        pointer: here,
        label: "unknown member added",
        replace: (root) =>
          path.length === 0
            ? { ...(root as object), zz_unknown: 1 }
            : at(root, path, (parent, k) => ((parent as Record<string | number, Record<string, unknown>>)[k] = { ...(node as object), zz_unknown: 1 })),
      });
      for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
    } else if (Array.isArray(node)) {
      if (node.length > 0) {
        out.push({
          pointer: here,
          label: `${HUGE_ARRAY} items`,
          replace: (root) =>
            at(
              root,
              path,
              (parent, k) => ((parent as Record<string | number, unknown>)[k] = Array.from({ length: HUGE_ARRAY }, () => structuredClone(node[0]))),
            ),
        });
        walk(node[0], [...path, 0]);
      }
    } else if (typeof node === "string") {
      out.push({
        pointer: here,
        label: "100,000 characters",
        replace: (root) => at(root, path, (parent, k) => ((parent as Record<string | number, unknown>)[k] = HUGE_STRING)),
      });
    } else if (typeof node === "number") {
      for (const n of [1e12, -1e12, 2.5])
        out.push({ pointer: here, label: `${n}`, replace: (root) => at(root, path, (parent, k) => ((parent as Record<string | number, unknown>)[k] = n)) });
    }
  };
  walk(value, []);
  return out.map((p) => ({ ...p, pointer: pointer + p.pointer }));
}

let service: TestService;
let documents: Document[];
let ajv: Ajv2020;
let routes: { key: string; body?: z.ZodType; query?: z.ZodType }[];

beforeAll(async () => {
  service = await startTestService();
  const api = new TestClient(service);
  documents = [(await api.request<Document>("GET", "/api/v1/openapi.json")).body, (await api.admin<Document>("GET", "/openapi.json")).body];
  ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  // Each document's components under its own id, so "#/components/…" refs resolve.
  documents.forEach((doc, i) => ajv.addSchema({ $id: `doc${i}`, components: doc.components }));
  routes = service.runtime.app.openAPIRegistry.definitions.flatMap((def) => {
    if (def.type !== "route") return [];
    const { method, path, request } = def.route;
    const key = `${method} ${path}`;
    if (READ_BY_HAND.has(key)) return [];
    const media = request?.body?.content?.["application/json"] as { schema?: unknown } | undefined;
    const body = media?.schema;
    const isZod = (v: unknown): v is z.ZodType => typeof v === "object" && v !== null && "safeParse" in v;
    const query = VALID_QUERIES[key] ? withBase(request?.query, VALID_QUERIES[key]) : request?.query;
    return [{ key, body: isZod(body) ? body : undefined, query: isZod(query) ? query : undefined }];
  });
});
afterAll(() => service.close());

function documented(key: string): { op: Operation; doc: number } {
  const [method = "", path = ""] = key.split(" ");
  for (const [i, doc] of documents.entries()) {
    const op = doc.paths[path]?.[method];
    if (op) return { op, doc: i };
  }
  throw new Error(`${key} is not documented`);
}

/** The document's schema with its refs pointed at that document's components. */
function compile(schema: Record<string, unknown>, doc: number) {
  const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"doc${doc}#/components/`)) as Record<string, unknown>;
  return ajv.compile(rebased);
}

describe("JSON bodies: the document's schema accepts and refuses what the validator does", () => {
  it("every operation with a JSON body has a valid example here", () => {
    const withBodies = routes.filter((r) => r.body).map((r) => r.key);
    expect(
      withBodies.filter((key) => !(key in VALID_BODIES)),
      "add an example to VALID_BODIES",
    ).toEqual([]);
  });

  it("the examples are valid for both", () => {
    for (const route of routes.filter((r) => r.body)) {
      const sample = VALID_BODIES[route.key];
      const { op, doc } = documented(route.key);
      const schema = op.requestBody?.content?.["application/json"]?.schema ?? {};
      expect(route.body?.safeParse(sample).success, `${route.key}: validator`).toBe(true);
      expect(compile(schema, doc)(sample), `${route.key}: document`).toBe(true);
    }
  });

  it("and agree on every probe (required members, unknown members, lengths, item counts, ranges)", () => {
    const disagreements: string[] = [];
    for (const route of routes.filter((r) => r.body)) {
      const sample = VALID_BODIES[route.key];
      const { op, doc } = documented(route.key);
      const validate = compile(op.requestBody?.content?.["application/json"]?.schema ?? {}, doc);
      for (const probe of probesOf(sample)) {
        const body = probe.replace(sample);
        const byValidator = route.body?.safeParse(body).success ?? false;
        const byDocument = validate(body);
        if (byValidator !== byDocument) {
          disagreements.push(
            `${route.key} ${probe.pointer} ${probe.label}: the API ${byValidator ? "accepts" : "refuses"} it, the document ${byDocument ? "accepts" : "refuses"} it`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe("query parameters: the document's schema accepts and refuses what the validator does", () => {
  it("agree on huge numbers, negative numbers and long strings for every declared parameter", () => {
    const disagreements: string[] = [];
    for (const route of routes.filter((r) => r.query)) {
      const { op, doc } = documented(route.key);
      for (const parameter of (op.parameters ?? []).filter((p) => p.in === "query")) {
        const validate = compile(parameter.schema, doc);
        for (const raw of ["1000000000000", "-5", "0", HUGE_STRING.slice(0, 5000)]) {
          const byValidator = route.query?.safeParse({ [parameter.name]: raw }).success ?? false;
          const type = parameter.schema.type;
          const asDocumented = type === "integer" || type === "number" ? Number(raw) : raw;
          const byDocument = validate(asDocumented);
          if (byValidator !== byDocument) {
            disagreements.push(
              `${route.key} ?${parameter.name}=${raw.slice(0, 16)}: the API ${byValidator ? "accepts" : "refuses"} it, the document ${byDocument ? "accepts" : "refuses"} it`,
            );
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
