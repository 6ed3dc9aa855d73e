// The service's HTTP app: one Hono app serving the mission interface (/api/v1), the operator
// interface (/api/admin/v1), health and the OpenAPI document. Mounted inside Next by
// app/api/[...route]/route.ts, or served on its own by scripts/api-server.ts. Never imports Next.
import { OpenAPIHono, createRoute, z, type Hook } from "@hono/zod-openapi";
import { routePath } from "hono/route";
import { sql } from "drizzle-orm";
import type { ZodError } from "zod";
import { SCOPES } from "@/lib/auth/scopes";
import { MAX_ACTIVE_API_KEYS } from "@/lib/service/accounts/create-api-key";
import { ADMIN_BASE_PATH, API_BASE_PATH, CDN_BASE_PATH, ORDERS_BASE_PATH, type ServiceContext } from "@/lib/service/context";
import { ApiError, problemResponse, validationFailed, type FieldError } from "@/lib/service/errors";
import type { ServiceMetrics } from "@/lib/service/metrics/service-metrics";
import { requireAdmin } from "./middleware/require-admin";
import { PerMethodRouter } from "./per-method-router";
import { routePathPattern } from "./route-pattern";
import { splitDocuments } from "./openapi-documents";
import { registerAdminRoutes } from "./routes/admin";
import { registerAdminOrderRoutes } from "./routes/admin-orders";
import { registerAdminKeyRoutes } from "./routes/admin-keys";
import { registerProvenanceRoutes } from "./routes/provenance";
import { registerCdnRoutes } from "./routes/cdn";
import { registerOperationRoutes } from "./routes/operations";
import { registerCredentialRoutes } from "./routes/credentials";
import { registerDiscoveryRoutes } from "./routes/discovery";
import { registerDashboardRoutes } from "./routes/dashboard";
import { registerFieldRoutes } from "./routes/field";
import { registerFieldAssignmentRoutes } from "./routes/field-assignments";
import { registerFieldUploadRoutes } from "./routes/field-uploads";
import { registerAuthRoutes } from "./routes/auth";
import { registerMissionRoutes } from "./routes/missions";
import { registerOrderRoutes } from "./routes/orders";
import { registerSubmissionRoutes } from "./routes/submissions";
import { registerWebhookRoutes } from "./routes/webhooks";
import { assertStorableInput } from "./storable-input";
import { EVERY_RESPONSE_HEADERS, errorResponse, requestIdOf } from "./request-frame";
import { registerWebhookEvents } from "./webhook-events";
import type { AppEnv } from "./types";

const TARGET_LOCATION: Record<string, FieldError["in"]> = { json: "body", form: "body", query: "query", param: "path", header: "header" };

const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    throw validationFailed(result.error as ZodError, TARGET_LOCATION[result.target] ?? "body");
  }
  // Every validated input passes here, whatever the route: refuse what PostgreSQL cannot store.
  assertStorableInput(result.data, TARGET_LOCATION[result.target] ?? "body");
};

const healthRoute = createRoute({
  method: "get",
  path: "/api/health",
  operationId: "getHealth",
  tags: ["Health"],
  summary: "Health",
  description: "Answers when the app and its database respond; says which database is in use.",
  responses: {
    200: {
      description: "Healthy.",
      content: {
        "application/json": {
          schema: z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgres"]) }).openapi("Health"),
        },
      },
    },
  },
});

export function createSubApp() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

/** The app requests reach: sub-apps' routes are copied into its router, the one that matches. */
function createRootApp() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook, router: new PerMethodRouter() });
}

function methodsAllowedFor(app: OpenAPIHono<AppEnv>, path: string): string[] {
  const allowed = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    if (routePathPattern(route.path).test(path)) allowed.add(route.method);
  }
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort();
}

const API_KEY_SCHEME = {
  type: "http" as const,
  scheme: "bearer",
  description: "An organisation API key (`pm_live_…`), issued in the dashboard or by the operator; order interface only. Read-only keys may call GET routes.",
};

const ORDERS_TAG_DESCRIPTION =
  `The order interface, at \`{origin}${ORDERS_BASE_PATH}\` (its own document: \`${ORDERS_BASE_PATH}/openapi.json\`). ` +
  "Authenticate with an organisation API key or an OAuth token with orders:read / orders:write. Requests per minute follow the plan " +
  "(Developer 60, Business 300, Enterprise unlimited — no X-RateLimit headers then) and count per organisation: all its API keys and " +
  "OAuth tokens share them (its dashboard has its own limits). " +
  `An organisation holds at most ${MAX_ACTIVE_API_KEYS} active API keys (one more is 409 ` +
  "`api_key_limit_reached`). Photos per calendar month follow the plan too (1,000 / 10,000 / unlimited). " +
  "Every POST takes an Idempotency-Key.";

/** The order interface's own document, with its own server URL and relative paths. */
function registerOrderDocument(orders: OpenAPIHono<AppEnv>, ctx: ServiceContext) {
  orders.openAPIRegistry.registerComponent("securitySchemes", "apiKey", API_KEY_SCHEME);
  orders.openAPIRegistry.registerComponent("securitySchemes", "oauth2", {
    type: "oauth2",
    flows: {
      clientCredentials: {
        tokenUrl: `${ctx.config.publicOrigin}${API_BASE_PATH}/auth/token`,
        scopes: { "orders:read": SCOPES["orders:read"], "orders:write": SCOPES["orders:write"] },
      },
    },
  });
  orders.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: { title: "Photo Missions — order interface", version: "1.0.0", description: ORDERS_TAG_DESCRIPTION },
    servers: [{ url: `${ctx.config.publicOrigin}${ORDERS_BASE_PATH}` }],
    tags: [{ name: "Orders", description: ORDERS_TAG_DESCRIPTION }],
  });
}

/** The app; `metrics` counts its requests (and the direct reads', listener.ts) and serves /metrics. */
export function createServiceApp(ctx: ServiceContext, metrics: ServiceMetrics) {
  const app = createRootApp();

  app.use("*", async (c, next) => {
    const started = performance.now();
    c.set("ctx", ctx);
    const requestId = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    c.set("responseHeaders", { "X-Request-Id": requestId });
    // Set before the handler runs (a handler may override Cache-Control), so responses keep
    // their fast path instead of being re-headered afterwards.
    c.header("X-Content-Type-Options", EVERY_RESPONSE_HEADERS["X-Content-Type-Options"]);
    c.header("Cache-Control", EVERY_RESPONSE_HEADERS["Cache-Control"]);
    c.header("X-Request-Id", requestId);
    // A request from a socket (@hono/node-server passes it as `incoming`), not an in-process call.
    const network = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
    if (network) ctx.traffic.started();
    try {
      await next();
    } finally {
      if (network) ctx.traffic.ended();
    }
    // By route pattern (bounded label values), never by the concrete path.
    metrics.observeRequest(c.req.method, routePath(c, -1), c.res.status, (performance.now() - started) / 1000);
  });

  registerDiscoveryRoutes(app);

  const v1 = createSubApp();
  registerAuthRoutes(v1);
  registerProvenanceRoutes(v1);
  registerMissionRoutes(v1);
  registerSubmissionRoutes(v1, ctx.config.uploads);
  registerFieldRoutes(v1);
  registerFieldAssignmentRoutes(v1, ctx.config.uploads);
  registerFieldUploadRoutes(v1, ctx);
  registerWebhookRoutes(v1);
  registerCredentialRoutes(v1);
  app.route(API_BASE_PATH, v1);

  const orders = createSubApp();
  registerOrderRoutes(orders);
  registerOrderDocument(orders, ctx);
  app.route(ORDERS_BASE_PATH, orders);

  const cdn = createSubApp();
  registerCdnRoutes(cdn);
  app.route(CDN_BASE_PATH, cdn);

  const admin = createSubApp();
  registerAdminRoutes(admin);
  registerAdminOrderRoutes(admin);
  registerAdminKeyRoutes(admin);
  registerDashboardRoutes(admin);
  app.route(ADMIN_BASE_PATH, admin);

  // GET /api/health – liveness and which database is behind the app
  app.openapi(healthRoute, async (c) => {
    await ctx.db.execute(sql`select 1`);
    return c.json({ status: "ok" as const, database: ctx.dbKind }, 200);
  });

  registerOperationRoutes(app, metrics);

  app.openAPIRegistry.registerComponent("securitySchemes", "oauth2", {
    type: "oauth2",
    description:
      "OAuth 2.0 client credentials. Tokens are EdDSA-signed JWTs (RFC 9068, `typ: at+jwt`) valid for 86400 s, issued and " +
      "verified as RFC8725 (JWT best current practices) asks: one fixed algorithm (`alg: none` and any other refused), `kid` " +
      "from our own JWKS only, `iss`, `aud` and `exp` always checked.",
    flows: { clientCredentials: { tokenUrl: `${ctx.config.publicOrigin}${API_BASE_PATH}/auth/token`, scopes: { ...SCOPES } } },
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", API_KEY_SCHEME);
  app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "The operator's ADMIN_TOKEN.",
  });

  registerWebhookEvents(app);

  // One generation (on first request, when every route is registered), split in two documents.
  let documents: ReturnType<typeof splitDocuments> | undefined;
  const openApiDocuments = () =>
    (documents ??= splitDocuments(app.getOpenAPI31Document(documentConfig), ADMIN_BASE_PATH, {
      title: "Photo Missions operator API",
      version: "1.0.0",
      description:
        "The operator interface (needs the ADMIN_TOKEN): organisations, users, credentials and zoomers, and the calls the dashboard's " +
        "server makes for its users. Errors are RFC 9457 problem details with a stable `code`.",
    }));
  const documentConfig: Parameters<typeof app.getOpenAPI31Document>[0] = {
    openapi: "3.1.0",
    info: {
      title: "Photo Missions API",
      version: "1.0.0",
      contact: supportContact(ctx.config.supportUrl),
      description:
        "Missions, submissions, geotagged images and webhooks for partners; field intake for zoomers. " +
        "Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`. Every authenticated response " +
        "carries X-RateLimit-Limit/Remaining/Reset; limits are 60 requests per minute and 1000 per hour per organisation (all its " +
        "clients share them; a zoomer's credentials count on their own).",
    },
    // x-internal: this document is for integrators outside (the operator's has its own).
    servers: [
      {
        url: ctx.config.publicOrigin,
        description: "This deployment (production, or the staging or local instance serving this document).",
        "x-internal": false,
      } as { url: string; description: string },
    ],
    tags: [
      { name: "Authentication", description: "OAuth 2.0 client credentials and signing keys." },
      { name: "Missions", description: "Geographic photo-collection jobs." },
      { name: "Submissions", description: "Photos submitted by zoomers, their images and QA verdicts." },
      { name: "Orders", description: ORDERS_TAG_DESCRIPTION },
      { name: "Webhooks", description: "Signed event deliveries: endpoints, secrets, delivery log, redelivery. See the webhooks guide." },
      {
        name: "Credentials",
        description: "The organisation's API clients and API keys, for its dashboard administrators (scope clients:manage). Secrets are shown once.",
      },
      { name: "Field", description: "For zoomers: open missions near them. Submitting photos is under Submissions." },
      { name: "CDN", description: "Photo bytes behind signed, expiring URLs." },
      { name: "Health", description: "Liveness, for load balancers and monitors." },
      { name: "Operator", description: "Organisations, users and credentials; needs the ADMIN_TOKEN." },
      {
        name: "Dashboard (operator)",
        description:
          "For the dashboard's server, which holds the ADMIN_TOKEN: signs dashboard users in, looks them up, and issues 15-minute " +
          "mission-interface tokens with the scopes of their role in an organisation.",
      },
    ],
  };
  // GET /api/v1/openapi.json – the public document
  app.get(`${API_BASE_PATH}/openapi.json`, (c) => c.json(openApiDocuments().public, 200, { "Cache-Control": "public, max-age=300" }));
  // GET /api/admin/v1/openapi.json – the operator interface's document, for the operator only
  app.get(`${ADMIN_BASE_PATH}/openapi.json`, requireAdmin, (c) => c.json(openApiDocuments().operator, 200));

  app.notFound((c) => {
    const allowed = methodsAllowedFor(app, c.req.path);
    if (allowed.length > 0) {
      return problemResponse(new ApiError(405, "method_not_allowed", `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`), c.req.path, {
        Allow: allowed.join(", "),
        ...EVERY_RESPONSE_HEADERS,
      });
    }
    return problemResponse(new ApiError(404, "route_not_found", `No route for ${c.req.method} ${c.req.path}.`), c.req.path, EVERY_RESPONSE_HEADERS);
  });

  app.onError((error, c) =>
    errorResponse(error, { method: c.req.method, path: c.req.path, requestId: c.var.requestId, responseHeaders: c.var.responseHeaders }),
  );

  return app;
}

export type ServiceApp = ReturnType<typeof createServiceApp>;

/**
 * The documents' contact: the support page or address the operator configured. Without one, no
 * link — a "Website" link back to the reference the reader is already in helps nobody.
 */
function supportContact(supportUrl: string | undefined): { name: string; url?: string; email?: string } {
  const name = "Photo Missions API support";
  if (!supportUrl) return { name };
  return supportUrl.startsWith("mailto:")
    ? { name, email: decodeURIComponent(supportUrl.slice("mailto:".length).split("?")[0] ?? "") }
    : { name, url: supportUrl };
}
