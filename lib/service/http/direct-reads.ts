// Direct reads: the service's hottest reads answered on Node's own request and response, before the
// Hono app. Through @hono/node-server every request becomes a WHATWG Request, runs Hono's middleware
// chain and comes back as a Response that is turned into Node's headers again; for a read served
// from memory that plumbing is most of the request's cost (docs/benchmarks.md, issue 36: 70–200 µs
// of CPU against a Fastify peer's 30–50 for the same answer).
//
// A direct read does the same work as the app's route with the same functions — the request id
// and the headers every response carries (request-frame.ts), the credential, budget and scope
// (createAuthorizer, as the route's `authenticate`), the route's domain function, the error's
// problem document (errorResponse, as the app's onError), the request metric and the traffic
// meter — and only its plumbing is Node's. Today: a mission, the unfiltered mission list, a
// mission's submissions as JSON, an order, the unfiltered order list, an order's delivered
// photos, the price list, and one POST without side effects, the quote (its JSON body parsed,
// guarded and validated with the app's own functions and schema). It takes a request only when its
// path, method, query and headers leave nothing to interpret (a plain id, GET, a list's page and
// per_page as plain digits within the route's own schema; for the quote a JSON body of a declared
// length within the limit and no Idempotency-Key); anything else (HEAD, an encoded or odd id, a
// trailing slash, a filter, a value the schema refuses, a chunked body, a key to replay) goes to the
// app, which is the reference: direct-reads.api.test.ts compares both answers, header by header,
// for the same requests.
import type { IncomingMessage, ServerResponse } from "node:http";
import { API_BASE_PATH, ORDERS_BASE_PATH, type ServiceContext } from "@/lib/service/context";
import { z } from "@hono/zod-openapi";
import { validationFailed } from "@/lib/service/errors";
import { CreateOrderSchema } from "@/lib/schemas/order";
import { QUOTE_PREVIEW_CYCLES, quoteOrderPreview } from "@/lib/service/orders/quote-order";
import { getMissionJson } from "@/lib/service/missions/get-mission";
import { listMissions } from "@/lib/service/missions/list-missions";
import { getOrder, listOrderPhotos, listOrders } from "@/lib/service/orders/order-views";
import { getPriceListJson } from "@/lib/service/orders/price-list";
import { GEOJSON_MEDIA_TYPE, listMissionSubmissions } from "@/lib/service/submissions/list-mission-submissions";
import type { ServiceMetrics } from "@/lib/service/metrics/service-metrics";
import { ORDER_CREDENTIALS, createAuthorizer, partnerOrgOf, partnerWithPlanOf, type Authorizer } from "./middleware/authenticate";
import { declaredLength, isJsonMediaType, readJsonBody } from "./middleware/json-body";
import { assertStorableInput } from "./storable-input";
import type { Caller } from "./types";
import { MAX_ID_LENGTH, PagingQuery } from "./openapi-common";
import { EVERY_RESPONSE_HEADERS, errorResponse, requestIdOf } from "./request-frame";
import { routePathPattern } from "./route-pattern";

/** What a direct read reads: the id in its path, a list's page, a POST's parsed JSON body. */
interface ReadTarget {
  id: string;
  page: number;
  perPage: number;
  /** A POST's body, parsed and guarded as the app's jsonBody does; undefined for a GET. */
  body: unknown;
}

/**
 * A read the service answers directly: a GET of one resource, named by its path or a plain id in
 * it, or a list's page; or a POST that changes nothing (the quote), its body JSON.
 */
interface DirectRead {
  /** GET, or POST for a read that takes a JSON body and has no side effects (the app's route: authenticate, jsonBody, idempotency, the body's schema). */
  method: "GET" | "POST";
  /** The whole path ("/api/orders/v1/prices"), or the path up to the id ("/api/v1/missions/"). */
  path: string;
  byId: boolean;
  /** What follows the id ("/photos"); empty when the id ends the path. */
  afterId?: string;
  /** A list: its query may hold `page` and `per_page` (nothing else); otherwise its query string is not read, as the app's route reads none. */
  paged: boolean;
  /** A request whose Accept names this media type is the app's: the route answers it in another representation. */
  unlessAccept?: string;
  /** Headers of its 200 besides those every answer has (the route's own, such as Vary). */
  headers?: Readonly<Record<string, string>>;
  /** The app's route pattern, as the request metric names it. */
  pattern: string;
  authorize: Authorizer;
  /** The JSON text of the answer (a 200); throws the ApiError to answer instead. */
  read(ctx: ServiceContext, caller: Caller, target: ReadTarget): Promise<string>;
}

/** A POST's body as the route's validator and the app's validation hook take it: 422 with the schema's errors, or what PostgreSQL cannot store. */
function validBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw validationFailed(result.error, "body");
  assertStorableInput(result.data, "body");
  return result.data;
}

// Ids the app would take as they are: no percent-encoding to decode, no dot segments, no slash.
const PLAIN_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_ID_LENGTH}}$`);

// The app's own paging schema (openapi-common.ts): what it would refuse, the app answers.
const PAGING = z.object(PagingQuery);
// A value the app would read as written: digits only, no sign, no encoding, no spaces.
const PLAIN_NUMBER = /^[0-9]{1,9}$/;

/** A list's page from its query string: only `page` and `per_page`, each at most once, as plain numbers the schema takes; null: the app answers. */
function plainPaging(query: string): { page: number; perPage: number } | null {
  const values: Record<string, string> = {};
  for (const pair of query === "" ? [] : query.split("&")) {
    const eq = pair.indexOf("=");
    const key = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? "" : pair.slice(eq + 1);
    if ((key !== "page" && key !== "per_page") || key in values || !PLAIN_NUMBER.test(value)) return null;
    values[key] = value;
  }
  const parsed = PAGING.safeParse(values);
  return parsed.success ? { page: parsed.data.page, perPage: parsed.data.per_page } : null;
}

// The order interface's reads: an API key or an OAuth token with orders:read, the plan's minute (routes/orders/common.ts).
const ORDER_READ = createAuthorizer({ scope: "orders:read", accept: ORDER_CREDENTIALS, rateLimit: "plan" });
const ORDER_WRITE = createAuthorizer({ scope: "orders:write", accept: ORDER_CREDENTIALS, rateLimit: "plan" });

const READS: readonly DirectRead[] = [
  {
    method: "GET",
    path: `${API_BASE_PATH}/missions/`,
    byId: true,
    paged: false,
    pattern: `${API_BASE_PATH}/missions/:id`,
    authorize: createAuthorizer({ scope: "missions:read" }),
    read: (ctx, caller, { id }) => getMissionJson(ctx, partnerOrgOf(caller), id),
  },
  {
    // A page of a mission's submissions as JSON, unfiltered: the dashboard's list, a partner's sync.
    method: "GET",
    path: `${API_BASE_PATH}/missions/`,
    byId: true,
    afterId: "/submissions",
    paged: true,
    unlessAccept: GEOJSON_MEDIA_TYPE,
    headers: { Vary: "Accept" },
    pattern: `${API_BASE_PATH}/missions/:id/submissions`,
    authorize: createAuthorizer({ scope: "submissions:read" }),
    read: async (ctx, caller, { id, page, perPage }) =>
      JSON.stringify((await listMissionSubmissions(ctx, { orgId: partnerOrgOf(caller), missionId: id, page, perPage, format: "json" })).body),
  },
  {
    // The unfiltered list (the active missions, newest first): what a partner's sync and the dashboard ask.
    method: "GET",
    path: `${API_BASE_PATH}/missions`,
    byId: false,
    paged: true,
    pattern: `${API_BASE_PATH}/missions`,
    authorize: createAuthorizer({ scope: "missions:read" }),
    read: async (ctx, caller, { page, perPage }) => JSON.stringify(await listMissions({ db: ctx.db, orgId: partnerOrgOf(caller), page, perPage })),
  },
  {
    // One order (its snapshot: getOrder reads it in one transaction), what an integration polls.
    method: "GET",
    path: `${ORDERS_BASE_PATH}/orders/`,
    byId: true,
    paged: false,
    pattern: `${ORDERS_BASE_PATH}/orders/:id`,
    authorize: ORDER_READ,
    read: async (ctx, caller, { id }) => JSON.stringify(await getOrder(ctx, { orgId: partnerOrgOf(caller), orderId: id })),
  },
  {
    // The unfiltered order list (every status, newest first), what an integration's sync asks.
    method: "GET",
    path: `${ORDERS_BASE_PATH}/orders`,
    byId: false,
    paged: true,
    pattern: `${ORDERS_BASE_PATH}/orders`,
    authorize: ORDER_READ,
    read: async (ctx, caller, { page, perPage }) =>
      JSON.stringify(await listOrders(ctx, { orgId: partnerOrgOf(caller), filters: { statuses: null, page, perPage } })),
  },
  {
    // A page of the order's delivered photos, what an integration fetches after photos.delivered.
    method: "GET",
    path: `${ORDERS_BASE_PATH}/orders/`,
    byId: true,
    afterId: "/photos",
    paged: true,
    pattern: `${ORDERS_BASE_PATH}/orders/:id/photos`,
    authorize: ORDER_READ,
    read: async (ctx, caller, { id, page, perPage }) => JSON.stringify(await listOrderPhotos(ctx, { orgId: partnerOrgOf(caller), orderId: id, page, perPage })),
  },
  {
    method: "GET",
    path: `${ORDERS_BASE_PATH}/prices`,
    byId: false,
    paged: false,
    pattern: `${ORDERS_BASE_PATH}/prices`,
    authorize: ORDER_READ,
    read: (ctx) => getPriceListJson(ctx.db),
  },
  {
    // The quote of a create-order body: a POST that creates nothing, what a checkout page asks as
    // the partner edits an order.
    method: "POST",
    path: `${ORDERS_BASE_PATH}/orders/quote`,
    byId: false,
    paged: false,
    pattern: `${ORDERS_BASE_PATH}/orders/quote`,
    authorize: ORDER_WRITE,
    read: async (ctx, caller, { body }) =>
      JSON.stringify(
        await quoteOrderPreview(ctx, { caller: partnerWithPlanOf(caller), input: validBody(CreateOrderSchema, body), cycles: QUOTE_PREVIEW_CYCLES }),
      ),
  },
];

export type DirectReads = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What a read that is not a list is given for its page: nothing it reads. */
const DEFAULT_PAGING = { page: 1, perPage: 1 } as const;

/**
 * Whether a POST's body is one a direct read takes as the app's jsonBody would without a detour:
 * JSON by its media type, its length declared (not chunked) and within the limit, and no
 * Idempotency-Key (a key is stored and replayed: the app's idempotency middleware).
 */
function plainJsonBody(ctx: ServiceContext, req: IncomingMessage): boolean {
  if (header(req, "idempotency-key") !== undefined || !isJsonMediaType(header(req, "content-type"))) return false;
  const declared = declaredLength(header(req, "content-length"), header(req, "transfer-encoding"));
  return declared !== undefined && declared <= ctx.config.maxBodyBytes;
}

/** The request's body as text, decoded as the app reads it (a web Request's text(): UTF-8, a BOM dropped). */
function bodyText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) return reject(new ClientGone());
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(UTF8.decode(Buffer.concat(chunks))));
    // After "end" this settles nothing; before it, the body will not come.
    req.on("close", () => reject(new ClientGone()));
    req.on("error", () => reject(new ClientGone()));
  });
}

/** The client went away before its body arrived: nothing to answer. */
class ClientGone extends Error {}
const UTF8 = new TextDecoder();

/** A route of the app, as Hono lists it (`app.routes`). */
export interface AppRoute {
  method: string;
  path: string;
}

/**
 * Throws unless the app still serves what the direct reads take, and only through the route they
 * stand in for: each one's pattern is a GET route of the app, no middleware but the app's first
 * ("/*") runs for it, and no other route claims its paths (a static sibling such as
 * "/missions/export" would be read here as a mission id). Checked when the listener is made.
 */
export function checkDirectReads(routes: readonly AppRoute[]): void {
  for (const read of READS) {
    if (!routes.some((r) => r.method === read.method && r.path === read.pattern))
      throw new Error(`direct read ${read.pattern}: the app has no ${read.method} ${read.pattern}`);
    const afterId = read.afterId ?? "";
    const sample = read.byId ? `${read.path}x${afterId}` : read.path;
    for (const route of routes) {
      if (route.path === "/*" || (route.method !== read.method && route.method !== "ALL")) continue;
      if (route.path === read.pattern) {
        if (route.method === "ALL") throw new Error(`direct read ${read.pattern}: middleware of its own in the app`);
        continue;
      }
      const sibling =
        read.byId &&
        route.path.length > read.path.length + afterId.length &&
        route.path.startsWith(read.path) &&
        route.path.endsWith(afterId) &&
        !route.path.slice(read.path.length, route.path.length - afterId.length).includes("/");
      if (sibling || routePathPattern(route.path).test(sample))
        throw new Error(`direct read ${read.pattern}: the app's ${route.method} ${route.path} also answers its paths`);
    }
  }
}

/**
 * The direct reads of this service: call with each request before the app; `true` means it is
 * being answered here, `false` that the app must answer it.
 */
export function createDirectReads(ctx: ServiceContext, metrics: ServiceMetrics): DirectReads {
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "POST") return false;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    for (const route of READS) {
      if (route.method !== req.method) continue;
      let id = "";
      if (route.byId) {
        const afterId = route.afterId ?? "";
        if (!path.startsWith(route.path) || !path.endsWith(afterId)) continue;
        id = path.slice(route.path.length, path.length - afterId.length);
        // Not an id the app would take as it is (or a path another read names: "{id}/photos").
        if (!PLAIN_ID.test(id)) continue;
      } else if (path !== route.path) continue;
      const paging = route.paged ? plainPaging(q === -1 ? "" : url.slice(q + 1)) : DEFAULT_PAGING;
      if (!paging) return false;
      if (route.unlessAccept && header(req, "accept")?.includes(route.unlessAccept)) return false;
      if (route.method === "POST" && !plainJsonBody(ctx, req)) return false;
      void answer(ctx, metrics, route, { id, ...paging }, path, req, res);
      return true;
    }
    return false;
  };
}

async function answer(
  ctx: ServiceContext,
  metrics: ServiceMetrics,
  route: DirectRead,
  where: Omit<ReadTarget, "body">,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const requestId = requestIdOf(header(req, "x-request-id"));
  const responseHeaders: Record<string, string> = { "X-Request-Id": requestId };
  ctx.traffic.started();
  let status = 200;
  try {
    try {
      const { caller, rateLimitHeaders } = await route.authorize(ctx, header(req, "authorization"), responseHeaders);
      // A POST's body as the app's jsonBody guard reads it (after the credential, as there).
      const target = { ...where, body: route.method === "POST" ? readJsonBody(await bodyText(req)) : undefined };
      const body = await route.read(ctx, caller, target);
      res.writeHead(200, {
        ...EVERY_RESPONSE_HEADERS,
        "X-Request-Id": requestId,
        ...rateLimitHeaders,
        ...route.headers,
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
      });
      res.end(body);
    } catch (error) {
      if (error instanceof ClientGone) throw error;
      const problem = errorResponse(error, { method: route.method, path, requestId, responseHeaders });
      status = problem.status;
      const body = await problem.text();
      res.writeHead(status, { ...Object.fromEntries(problem.headers), "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    }
  } catch (error) {
    // Reading or writing failed (the socket is gone): nothing is left to answer.
    res.destroy(error instanceof Error ? error : undefined);
  } finally {
    ctx.traffic.ended();
    metrics.observeRequest(route.method, route.pattern, status, (performance.now() - started) / 1000);
  }
}

/**
 * A request header as the app reads it: @hono/node-server builds the Request's headers from the raw
 * ones, and Headers.get joins repeated ones with ", " (Node's req.headers keeps only the first
 * Authorization, so it would read two differently).
 */
function header(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.length === name.length && raw[i]?.toLowerCase() === name) value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}
