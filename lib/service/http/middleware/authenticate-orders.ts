// Authentication for the order interface: `Authorization: Bearer <API_KEY>` with one of the
// organisation's API keys (looked up by digest on every request, so a revoked key stops at once),
// or an OAuth access token with orders:read / orders:write. Requests are then counted against the
// per-minute limit of the organisation's plan (Developer 60, Business 300, Enterprise none).
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { hashSecret } from "@/lib/auth/secrets";
import { DASHBOARD_TOKEN_KIND, TokenError } from "@/lib/auth/tokens";
import { apiKeys, organisations, type Plan } from "@/lib/db/schema";
import { ApiError } from "@/lib/service/errors";
import { PLAN_TERMS } from "@/lib/service/orders/plans";
import { rateLimitHeaders } from "@/lib/service/rate-limit/consume";
import type { AppEnv } from "../types";

const REALM = 'Bearer realm="photo-missions-orders"';
export const API_KEY_PREFIX = "pm_live_";

type OrderScope = "orders:read" | "orders:write";

function unauthorized(detail: string, error?: string): ApiError {
  const description = detail.replaceAll('"', "'");
  return new ApiError(401, error ?? "unauthorized", detail, {
    headers: { "WWW-Authenticate": error ? `${REALM}, error="${error}", error_description="${description}"` : REALM },
  });
}

async function fromApiKey(c: { var: AppEnv["Variables"] }, key: string, scope: OrderScope) {
  const { db } = c.var.ctx;
  const [row] = await db
    .select({ id: apiKeys.id, orgId: apiKeys.orgId, access: apiKeys.access, lastUsedAt: apiKeys.lastUsedAt, plan: organisations.plan })
    .from(apiKeys)
    .innerJoin(organisations, eq(organisations.id, apiKeys.orgId))
    .where(and(eq(apiKeys.keyHash, hashSecret(key)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) throw unauthorized("The API key is not valid: it is unknown or was revoked.", "invalid_token");
  // At most one write a minute per key, so "last used" costs nothing on a busy key.
  if (row.lastUsedAt === null || row.lastUsedAt.getTime() < Date.now() - 60_000) {
    await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
  }
  return {
    orgId: row.orgId,
    plan: row.plan,
    credential: `key:${row.id}`,
    canWrite: row.access === "read_write",
    scopeError: scope === "orders:write" && row.access !== "read_write" ? "This API key is read-only." : null,
    activeClientId: undefined,
    dashboard: false,
  };
}

async function fromAccessToken(c: { var: AppEnv["Variables"] }, token: string, scope: OrderScope) {
  const { ctx } = c.var;
  let verified;
  try {
    verified = await ctx.keys.verify(token);
  } catch (error) {
    if (error instanceof TokenError) throw unauthorized(`The access token is not valid: ${error.message}.`, "invalid_token");
    throw error;
  }
  if (!verified.org) throw new ApiError(403, "insufficient_scope", "These credentials do not belong to a partner organisation.");
  const [org] = await ctx.db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, verified.org)).limit(1);
  if (!org) throw unauthorized("The access token's organisation no longer exists.", "invalid_token");
  return {
    orgId: verified.org,
    plan: org.plan,
    credential: `client:${verified.client_id}`,
    canWrite: verified.scopes.has("orders:write"),
    scopeError: verified.scopes.has(scope) ? null : `This request needs the scope "${scope}".`,
    activeClientId: verified.client_id,
    // All staff of an organisation share its dashboard client: it has its own limits, as on the
    // mission interface, rather than the plan's per-credential minute.
    dashboard: verified.kind === DASHBOARD_TOKEN_KIND,
  };
}

export function authenticateOrders(scope: OrderScope) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i.exec(header);
    if (!match?.[1]) throw unauthorized("Send an API key or an access token as `Authorization: Bearer <API_KEY>`.");
    const credential = match[1].startsWith(API_KEY_PREFIX) ? await fromApiKey(c, match[1], scope) : await fromAccessToken(c, match[1], scope);

    const { dashboardRateLimit } = c.var.ctx.config;
    const perMinute = credential.dashboard ? dashboardRateLimit.perMinute : PLAN_TERMS[credential.plan].requestsPerMinute;
    const windows = credential.dashboard
      ? [
          { seconds: 60, limit: dashboardRateLimit.perMinute },
          { seconds: 3600, limit: dashboardRateLimit.perHour },
        ]
      : [{ seconds: 60, limit: perMinute ?? 0 }];
    if (perMinute !== null) {
      const usage = await c.var.ctx.limiter.consume(`orders:${credential.credential}`, windows, {
        activeClientId: credential.activeClientId,
      });
      if (!usage.clientActive) throw unauthorized("The access token is not valid: the client was revoked.", "invalid_token");
      const headers = rateLimitHeaders(usage.binding);
      c.set("responseHeaders", { ...c.var.responseHeaders, ...headers });
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      if (!usage.allowed) {
        throw new ApiError(
          429,
          "rate_limited",
          credential.dashboard
            ? `The organisation's dashboard made more than ${usage.binding.limit} requests per ${usage.binding.seconds === 60 ? "minute" : "hour"}; retry after ${usage.retryAfterSeconds} s.`
            : `The ${PLAN_TERMS[credential.plan].label} plan allows ${perMinute} order-interface requests per minute; retry after ${usage.retryAfterSeconds} s.`,
          { headers: { "Retry-After": String(usage.retryAfterSeconds) } },
        );
      }
    }

    if (credential.scopeError) {
      throw new ApiError(403, "insufficient_scope", credential.scopeError, {
        headers: { "WWW-Authenticate": `${REALM}, error="insufficient_scope", scope="${scope}"` },
      });
    }
    c.set("orderCaller", { orgId: credential.orgId, plan: credential.plan, credential: credential.credential });
    await next();
  });
}

export interface OrderCaller {
  orgId: string;
  plan: Plan;
  /** `key:<id>` or `client:<id>`: what requests are counted against. */
  credential: string;
}
