// The fair peer of api-routes: a Fastify 5 server doing the same reads as the service's routes,
// the way a good engineer would write them with the same parts — the same service runtime built
// from the same environment (database and driver, the verified-token cache of lib/service/keys/tokens.ts,
// the verified-credential cache of lib/service/credentials/credential-cache.ts, the mission row
// cache, the limiter's client-revocation answers, the job worker in-process as `npm start` runs it),
// the same domain functions, the same JSON, and the spec's rate limits counted with the same
// limiter (per organisation, X-RateLimit-* on every authenticated answer: the interface requires
// them); without the service's HTTP layer (Hono, the OpenAPI validation, problem+json, request
// ids, metrics). What a family costs here and not in the service is its read; what the service
// adds is its HTTP stack and middleware.
// Started as a child process by scripts/bench/api-routes.ts (environment as for `npm start`:
// DATA_DIR, PUBLIC_ORIGIN, DEMO=off); GET / answers 200 (readiness). Not meant to be run by hand.
// The service runs with the demo on, which seeds the demo's organisations and its month of
// delivery history near Florence at start (lib/demo/start-demo.ts) — the history the quote's
// delivery estimate reads. The peer seeds the same data at start (without the demo's simulator,
// whose traffic belongs to the subject), so its quote does the same work and sends the same bytes.
import "@/lib/runtime/v8-tuning"; // the service's V8 settings: a baseline runs under the same runtime
import { parseArgs } from "node:util";
import { and, eq, isNull } from "drizzle-orm";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { hashSecret } from "@/lib/auth/secrets";
import { apiKeys, organisations, type Plan } from "@/lib/db/schema";
import { CreateOrderSchema } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { getMissionJson } from "@/lib/service/missions/get-mission";
import { listMissions } from "@/lib/service/missions/list-missions";
import { getOrder, listOrderPhotos, listOrders } from "@/lib/service/orders/order-views";
import { getPriceList } from "@/lib/service/orders/price-list";
import { QUOTE_PREVIEW_CYCLES, quoteOrderPreview } from "@/lib/service/orders/quote-order";
import { startRuntime } from "@/lib/runtime/runtime";
import { seedDemo } from "@/lib/demo/seed-demo";
import { seedDemoHistory } from "@/lib/demo/seed-demo-history";
import { env } from "@/lib/env";
import { PLAN_TERMS } from "@/lib/service/orders/plans";
import { rateLimitHeaders, type RateWindow } from "@/lib/service/rate-limit/consume";
import { listMissionSubmissions } from "@/lib/service/submissions/list-mission-submissions";
import { settleMessageShapes } from "@/lib/http/message-shapes";

const { values } = parseArgs({ options: { port: { type: "string" } } });
if (!values.port) throw new Error("usage: api-routes-peer-server.ts --port <n> (DATA_DIR, PUBLIC_ORIGIN in the environment)");

const runtime = await startRuntime(env, { trustProxy: false });
const ctx: ServiceContext = runtime.ctx;
const demo = await seedDemo(ctx);
await seedDemoHistory(ctx, { orgId: demo.state.orgId, zoomerClientId: demo.state.zoomer.client_id });
const API_KEY_PREFIX = "pm_live_";
const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;

interface Caller {
  orgId: string;
  plan?: Plan;
  scopes: ReadonlySet<string>;
}

class Refused extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

const SERVICE_WINDOWS: RateWindow[] = [
  { seconds: 60, limit: ctx.config.rateLimit.perMinute },
  { seconds: 3600, limit: ctx.config.rateLimit.perHour },
];
const planWindows = (plan: Plan): RateWindow[] | null => {
  const perMinute = PLAN_TERMS[plan].requestsPerMinute;
  return perMinute === null ? null : [{ seconds: 60, limit: perMinute }];
};

/**
 * The bearer credential with the service's caches (tokens by digest, API keys and plans for a few
 * seconds), counted against its organisation's budget (the mission interface's minute and hour,
 * the order interface's plan) with the same limiter, the revocation of its client checked there.
 */
async function caller(request: FastifyRequest, reply: FastifyReply, scope: string, orderInterface: boolean): Promise<Caller> {
  const needPlan = orderInterface;
  const bearer = BEARER.exec(request.headers.authorization ?? "")?.[1];
  if (!bearer) throw new Refused(401);
  let found: Caller;
  let activeClientId: string | undefined;
  if (bearer.startsWith(API_KEY_PREFIX)) {
    const digest = hashSecret(bearer);
    let key = ctx.credentials.apiKey(digest);
    if (!key) {
      const readAt = ctx.credentials.generation();
      [key] = await ctx.db
        .select({ id: apiKeys.id, orgId: apiKeys.orgId, access: apiKeys.access, lastUsedAt: apiKeys.lastUsedAt, plan: organisations.plan })
        .from(apiKeys)
        .innerJoin(organisations, eq(organisations.id, apiKeys.orgId))
        .where(and(eq(apiKeys.keyHash, digest), isNull(apiKeys.revokedAt)))
        .limit(1);
      if (!key) throw new Refused(401);
      ctx.credentials.setApiKey(digest, key, readAt);
    }
    found = { orgId: key.orgId, plan: key.plan, scopes: new Set(key.access === "read_write" ? ["orders:read", "orders:write"] : ["orders:read"]) };
  } else {
    const token = await ctx.keys.verify(bearer).catch(() => null);
    if (!token?.org) throw new Refused(401);
    activeClientId = token.client_id;
    found = { orgId: token.org, scopes: token.scopes };
    if (needPlan) {
      let plan = ctx.credentials.plan(token.org);
      if (!plan) {
        const readAt = ctx.credentials.generation();
        const [org] = await ctx.db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, token.org)).limit(1);
        if (!org) throw new Refused(401);
        plan = org.plan;
        ctx.credentials.setPlan(token.org, plan, readAt);
      }
      found.plan = plan;
    }
  }
  const windows = orderInterface ? (found.plan ? planWindows(found.plan) : null) : SERVICE_WINDOWS;
  if (windows) {
    const usage = await ctx.limiter.consume(`${orderInterface ? "orders:" : ""}org:${found.orgId}`, windows, { activeClientId });
    if (!usage.clientActive) throw new Refused(401);
    void reply.headers(rateLimitHeaders(usage.binding));
    if (!usage.allowed) throw new Refused(429);
  } else if (activeClientId && !(await ctx.limiter.isClientActive(activeClientId))) {
    throw new Refused(401);
  }
  if (!found.scopes.has(scope)) throw new Refused(403);
  return found;
}

// Buffers, so Fastify sends "application/json" as the service does (to a string it adds a charset).
const sendJson = (reply: FastifyReply, value: unknown) => reply.header("content-type", "application/json").send(Buffer.from(JSON.stringify(value)));

const app = Fastify({ logger: false });
app.setErrorHandler((error, _request, reply) => {
  void reply.code(error instanceof Refused ? error.status : 500).send({ error: error instanceof Error ? error.message : "error" });
});
app.get("/", async () => ({ ok: true }));

type IdParams = { Params: { id: string } };
type PageQuery = { Querystring: { page?: string; per_page?: string } };
const pageOf = (query: { page?: string; per_page?: string }) => ({ page: Number(query.page ?? 1), perPage: Number(query.per_page ?? 20) });

app.get<IdParams>("/api/v1/missions/:id", async (request, reply) => {
  const { orgId } = await caller(request, reply, "missions:read", false);
  return reply.header("content-type", "application/json").send(Buffer.from(await getMissionJson(ctx, orgId, request.params.id)));
});

app.get<PageQuery>("/api/v1/missions", async (request, reply) => {
  const { orgId } = await caller(request, reply, "missions:read", false);
  const { page, perPage } = pageOf(request.query);
  return sendJson(reply, await listMissions({ db: ctx.db, orgId, page, perPage }));
});

app.get<IdParams & PageQuery>("/api/v1/missions/:id/submissions", async (request, reply) => {
  const { orgId } = await caller(request, reply, "submissions:read", false);
  const { page, perPage } = pageOf(request.query);
  return sendJson(reply, (await listMissionSubmissions(ctx, { orgId, missionId: request.params.id, page, perPage, format: "json" })).body);
});

app.get<PageQuery>("/api/orders/v1/orders", async (request, reply) => {
  const { orgId } = await caller(request, reply, "orders:read", true);
  const { page, perPage } = pageOf(request.query);
  return sendJson(reply, await listOrders(ctx, { orgId, filters: { statuses: null, clientReference: undefined, createdSince: undefined, page, perPage } }));
});

app.get<IdParams>("/api/orders/v1/orders/:id", async (request, reply) => {
  const { orgId } = await caller(request, reply, "orders:read", true);
  return sendJson(reply, await getOrder(ctx, { orgId, orderId: request.params.id }));
});

app.get<IdParams & PageQuery>("/api/orders/v1/orders/:id/photos", async (request, reply) => {
  const { orgId } = await caller(request, reply, "orders:read", true);
  return sendJson(reply, await listOrderPhotos(ctx, { orgId, orderId: request.params.id, ...pageOf(request.query) }));
});

app.get("/api/orders/v1/prices", async (request, reply) => {
  await caller(request, reply, "orders:read", true);
  const { prices, updatedAt } = await getPriceList(ctx.db);
  return sendJson(reply, { ...prices, updated_at: updatedAt.toISOString() });
});

app.post("/api/orders/v1/orders/quote", async (request, reply) => {
  const { orgId, plan } = await caller(request, reply, "orders:write", true);
  if (!plan) throw new Refused(403);
  const input = CreateOrderSchema.safeParse(request.body);
  if (!input.success) return reply.code(422).send({ error: "validation_failed" });
  return sendJson(reply, await quoteOrderPreview(ctx, { caller: { orgId, plan }, input: input.data, cycles: QUOTE_PREVIEW_CYCLES }));
});

await app.listen({ port: Number(values.port), host: "0.0.0.0" });
// The service's settling requests (lib/http/message-shapes.ts): a baseline runs under the same runtime.
await settleMessageShapes(app.server, { path: "/" });

process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => runtime.stop())
    .finally(() => process.exit(0));
});
