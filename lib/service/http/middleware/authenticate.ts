// The one authentication wrapper of both interfaces. It reads the bearer credential (an OAuth access
// token; on the order interface also an organisation API key, looked up by digest and kept verified
// for a few seconds: lib/service/credentials/credential-cache.ts — a revoked key stops at once in
// the process that revoked it, within CREDENTIAL_TTL_MS on other instances), counts the request against its organisation's budget (the same
// statement refuses revoked clients), then checks the scope and sets `c.var.caller`.
//
// Budgets count per organisation, never per credential (more keys or clients buy no throughput):
// - "service" (the mission interface): RATE_LIMIT_PER_MINUTE / _PER_HOUR shared by all the
//   organisation's partner clients; a zoomer's credentials (no organisation) count on their own.
// - "plan" (the order interface): the plan's requests per minute (Developer 60, Business 300,
//   Enterprise none) shared by all the organisation's API keys and OAuth tokens.
// Dashboard tokens count against DASHBOARD_RATE_LIMIT_* instead, on either interface: all staff of
// an organisation share its one dashboard client, so that budget is per organisation too, and an
// integration that spends the plan's minute does not lock the staff out of their dashboard.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { Scope } from "@/lib/auth/scopes";
import { hashSecret } from "@/lib/auth/secrets";
import { DASHBOARD_TOKEN_KIND, TokenError } from "@/lib/service/keys/tokens";
import { apiKeys, organisations, type Plan } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import type { CachedApiKey } from "@/lib/service/credentials/credential-cache";
import { ApiError } from "@/lib/service/errors";
import { PLAN_TERMS } from "@/lib/service/orders/plans";
import { rateLimitHeaders, type ConsumeResult, type RateWindow } from "@/lib/service/rate-limit/consume";
import type { AppEnv, Caller } from "../types";

export const API_KEY_PREFIX = "pm_live_";

export type CredentialKind = "access_token" | "api_key";

export interface AuthenticateOptions {
  /** The scope the route needs. A read-write API key holds orders:read and orders:write, a read-only one orders:read. */
  scope: Scope;
  /** The credentials the route accepts; default: OAuth access tokens only (the mission interface). */
  accept?: readonly CredentialKind[];
  /** Whose budget a request counts against (see the top of this file); default "service". */
  rateLimit?: "service" | "plan";
}

/** The order interface's credentials: the organisation's API keys or OAuth access tokens. */
export const ORDER_CREDENTIALS: readonly CredentialKind[] = ["api_key", "access_token"];

const API_KEY_SCOPES: Record<"read_write" | "read_only", ReadonlySet<Scope>> = {
  read_write: new Set<Scope>(["orders:read", "orders:write"]),
  read_only: new Set<Scope>(["orders:read"]),
};

/** A credential as read from the request, before it is counted and its scope checked. */
interface Presented {
  caller: Caller;
  scopes: ReadonlySet<string>;
  /** Shown instead of the generic scope message when the scope is missing. */
  scopeDetail?: string;
  /** The API client whose revocation must stop this request (access tokens only). */
  activeClientId?: string;
  dashboard: boolean;
}

/** What a request counts against; the refusal's wording is made only when one is refused. */
type Budget = { key: string; windows: RateWindow[] } & ({ kind: "dashboard" | "service" } | { kind: "plan"; plan: Plan });

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;

/** A request's credential, counted and checked: its caller, and the rate-limit headers its responses carry. */
export interface Authorized {
  caller: Caller;
  /** X-RateLimit-* of the budget it counted against; empty when nothing limits it. */
  rateLimitHeaders: Readonly<Record<string, string>>;
}

/**
 * Checks a request's `Authorization` header against a route's options: the credential, its
 * organisation's budget (counted here) and the scope. Throws the ApiError to answer. The
 * rate-limit headers are also added to `responseHeaders` as soon as the request is counted, so a
 * refusal after that (the scope) carries them too. Used by `authenticate` (the app's middleware)
 * and by the direct reads (lib/service/http/direct-reads.ts), so both answer alike.
 */
export type Authorizer = (ctx: ServiceContext, authorization: string | undefined, responseHeaders: Record<string, string>) => Promise<Authorized>;

export function createAuthorizer({ scope, accept = ["access_token"], rateLimit = "service" }: AuthenticateOptions): Authorizer {
  // Each interface names its own protection space in its challenges.
  const realm = `Bearer realm="${rateLimit === "plan" ? "photo-missions-orders" : "photo-missions"}"`;
  const acceptsApiKeys = accept.includes("api_key");

  return async (ctx, authorization, responseHeaders) => {
    const bearer = BEARER.exec(authorization ?? "")?.[1];
    if (!bearer) {
      const what = acceptsApiKeys ? "an API key or an access token as `Authorization: Bearer <API_KEY>`" : "an access token as `Authorization: Bearer <token>`";
      throw new ApiError(401, "unauthorized", `Send ${what}.`, { headers: { "WWW-Authenticate": realm } });
    }

    // Where API keys are accepted they are told apart by their prefix; anything else is read as an
    // access token (and refused as one when it is not).
    const kind: CredentialKind = acceptsApiKeys && bearer.startsWith(API_KEY_PREFIX) ? "api_key" : "access_token";
    if (!accept.includes(kind)) throw invalidToken(realm, "This route accepts API keys only.");
    const presented = kind === "api_key" ? await fromApiKey(ctx, bearer, realm) : await fromAccessToken(ctx, bearer, realm);
    if (rateLimit === "plan") {
      if (!presented.caller.orgId) throw notPartner();
      presented.caller.plan ??= await planOf(ctx, presented.caller.orgId, realm);
    }

    let limitHeaders = NO_HEADERS;
    const budget = budgetOf(ctx, presented, rateLimit);
    if (budget) {
      const usage = await ctx.limiter.consume(budget.key, budget.windows, { activeClientId: presented.activeClientId });
      if (!usage.clientActive) throw revoked(realm);
      limitHeaders = rateLimitHeaders(usage.binding);
      Object.assign(responseHeaders, limitHeaders);
      if (!usage.allowed) {
        throw new ApiError(429, "rate_limited", refusal(budget, usage, presented.caller), { headers: { "Retry-After": String(usage.retryAfterSeconds) } });
      }
    } else if (presented.activeClientId && !(await ctx.limiter.isClientActive(presented.activeClientId))) {
      // An unlimited plan counts nothing, so revocation is checked on its own.
      throw revoked(realm);
    }

    if (!presented.scopes.has(scope)) {
      throw new ApiError(403, "insufficient_scope", presented.scopeDetail ?? `This request needs the scope "${scope}".`, {
        headers: { "WWW-Authenticate": `${realm}, error="insufficient_scope", scope="${scope}"` },
      });
    }
    return { caller: presented.caller, rateLimitHeaders: limitHeaders };
  };
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The app's middleware over `createAuthorizer`: sets `c.var.caller` and the rate-limit headers. */
export function authenticate(options: AuthenticateOptions) {
  const authorize = createAuthorizer(options);
  return createMiddleware<AppEnv>(async (c, next) => {
    // c.get, not c.var: each read of c.var copies every variable into a new object.
    // The request's own header object (app.ts makes one per request), so error responses carry them too.
    const { caller, rateLimitHeaders } = await authorize(c.get("ctx"), c.req.header("authorization"), c.get("responseHeaders"));
    for (const name in rateLimitHeaders) c.header(name, rateLimitHeaders[name]);
    c.set("caller", caller);
    await next();
  });
}

/** A request's context, or what a helper kept of it. */
type CallerSource = { get(key: "caller"): Caller } | { var: AppEnv["Variables"] };

// c.get where there is one: c.var copies every variable of the request into a new object per read.
const callerOf = (c: CallerSource): Caller => ("get" in c ? c.get("caller") : c.var.caller);

/** The caller's organisation; partner routes only (zoomer tokens never carry partner scopes). */
export function callerOrg(c: CallerSource): string {
  return partnerOrgOf(callerOf(c));
}

/** The partner organisation of a caller; zoomer credentials have none. */
export function partnerOrgOf({ orgId }: Caller): string {
  if (!orgId) throw notPartner();
  return orgId;
}

/** The caller's organisation and plan, as order operations need them (routes authenticated with rateLimit "plan"). */
export function callerWithPlan(c: CallerSource): { orgId: string; plan: Plan } {
  return partnerWithPlanOf(callerOf(c));
}

/** The partner organisation of a caller and its plan (authenticated with rateLimit "plan"); zoomer credentials have neither. */
export function partnerWithPlanOf({ orgId, plan }: Caller): { orgId: string; plan: Plan } {
  if (!orgId || !plan) throw notPartner();
  return { orgId, plan };
}

async function fromApiKey(ctx: ServiceContext, key: string, realm: string): Promise<Presented> {
  const row = await verifiedApiKey(ctx, hashSecret(key));
  if (!row) throw invalidToken(realm, "The API key is not valid: it is unknown or was revoked.");
  // At most one write a minute per key, so "last used" costs nothing on a busy key.
  const now = Date.now();
  if (row.lastUsedAt === null || row.lastUsedAt.getTime() < now - 60_000) {
    row.lastUsedAt = new Date(now); // the cached entry too: the next requests skip the write
    await ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
  }
  return {
    caller: { credential: { kind: "api_key", keyId: row.id }, orgId: row.orgId, plan: row.plan },
    scopes: API_KEY_SCOPES[row.access],
    scopeDetail: row.access === "read_only" ? "This API key is read-only." : undefined,
    dashboard: false,
  };
}

/** The key's row (organisation, access, plan), from the credential cache or the database. */
async function verifiedApiKey(ctx: ServiceContext, digest: string): Promise<CachedApiKey | undefined> {
  const cached = ctx.credentials.apiKey(digest);
  if (cached) return cached;
  const readAt = ctx.credentials.generation();
  const [row] = await ctx.db
    .select({ id: apiKeys.id, orgId: apiKeys.orgId, access: apiKeys.access, lastUsedAt: apiKeys.lastUsedAt, plan: organisations.plan })
    .from(apiKeys)
    .innerJoin(organisations, eq(organisations.id, apiKeys.orgId))
    .where(and(eq(apiKeys.keyHash, digest), isNull(apiKeys.revokedAt)))
    .limit(1);
  // Unknown or revoked keys are never cached: each is asked again (and is refused again).
  if (row) ctx.credentials.setApiKey(digest, row, readAt);
  return row;
}

async function fromAccessToken(ctx: ServiceContext, bearer: string, realm: string): Promise<Presented> {
  let token;
  try {
    token = await ctx.keys.verify(bearer);
  } catch (error) {
    if (error instanceof TokenError) throw invalidToken(realm, `The access token is not valid: ${error.message}.`, error.message);
    throw error;
  }
  return {
    caller: { credential: { kind: "access_token", clientId: token.client_id }, orgId: token.org, zoomerId: token.zoomer },
    scopes: token.scopes,
    activeClientId: token.client_id,
    // Dashboard tokens carry kind "dashboard" (signed, so it cannot be added to another token).
    dashboard: token.kind === DASHBOARD_TOKEN_KIND,
  };
}

async function planOf(ctx: ServiceContext, orgId: string, realm: string): Promise<Plan> {
  const cached = ctx.credentials.plan(orgId);
  if (cached) return cached;
  const readAt = ctx.credentials.generation();
  const [org] = await ctx.db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  if (!org) throw invalidToken(realm, "The access token's organisation no longer exists.");
  ctx.credentials.setPlan(orgId, org.plan, readAt);
  return org.plan;
}

/** What this request counts against, or null when nothing limits it (an unlimited plan). */
function budgetOf(ctx: ServiceContext, { caller, dashboard }: Presented, rateLimit: "service" | "plan"): Budget | null {
  // Counters of the two interfaces are kept apart: each has its own limits.
  const space = rateLimit === "plan" ? "orders:" : "";
  if (dashboard && caller.credential.kind === "access_token") {
    return { key: `${space}client:${caller.credential.clientId}`, windows: minuteAndHour(ctx.config.dashboardRateLimit), kind: "dashboard" };
  }
  if (rateLimit === "plan") {
    const { orgId, plan } = caller;
    if (!orgId || !plan) throw notPartner(); // both are known by now: see authenticate()
    const windows = PLAN_WINDOWS[plan];
    return windows ? { key: `${space}org:${orgId}`, windows, kind: "plan", plan } : null;
  }
  // A zoomer's credentials belong to no organisation: they count on their own.
  const owner = caller.orgId
    ? `org:${caller.orgId}`
    : caller.credential.kind === "access_token"
      ? `client:${caller.credential.clientId}`
      : `key:${caller.credential.keyId}`;
  return { key: `${space}${owner}`, windows: minuteAndHour(ctx.config.rateLimit), kind: "service" };
}

// The windows of each budget, made once (per configuration) instead of per request.
const PLAN_WINDOWS = Object.fromEntries(
  Object.entries(PLAN_TERMS).map(([plan, terms]) => [plan, terms.requestsPerMinute === null ? null : [{ seconds: 60, limit: terms.requestsPerMinute }]]),
) as Record<Plan, RateWindow[] | null>;
const configuredWindows = new WeakMap<{ perMinute: number; perHour: number }, RateWindow[]>();

function minuteAndHour(limits: { perMinute: number; perHour: number }): RateWindow[] {
  let windows = configuredWindows.get(limits);
  if (!windows) {
    windows = [
      { seconds: 60, limit: limits.perMinute },
      { seconds: 3600, limit: limits.perHour },
    ];
    configuredWindows.set(limits, windows);
  }
  return windows;
}

/** The 429's detail. */
function refusal(budget: Budget, usage: ConsumeResult, caller: Caller): string {
  const per = usage.binding.seconds === 60 ? "minute" : "hour";
  switch (budget.kind) {
    case "dashboard":
      return `The organisation's dashboard made more than ${usage.binding.limit} requests per ${per}; retry after ${usage.retryAfterSeconds} s.`;
    case "plan":
      return `The ${PLAN_TERMS[budget.plan].label} plan allows ${usage.binding.limit} order-interface requests per minute for the whole organisation (all its API keys and tokens); retry after ${usage.retryAfterSeconds} s.`;
    case "service":
      return `Rate limit of ${usage.binding.limit} requests per ${per} exceeded${caller.orgId ? " for the organisation (all its clients)" : ""}; retry after ${usage.retryAfterSeconds} s.`;
  }
}

function invalidToken(realm: string, detail: string, reason = detail): ApiError {
  const description = reason.replaceAll('"', "'");
  return new ApiError(401, "invalid_token", detail, {
    headers: { "WWW-Authenticate": `${realm}, error="invalid_token", error_description="${description}"` },
  });
}

const revoked = (realm: string) => invalidToken(realm, "The access token is not valid: the client was revoked.", "the client was revoked");

const notPartner = () => new ApiError(403, "insufficient_scope", "These credentials do not belong to a partner organisation.");
