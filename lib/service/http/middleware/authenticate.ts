// Bearer-token authentication for the mission interface: verifies the JWT, counts the request
// against the credential's limits (the same statement refuses revoked clients), then checks scope.
import { createMiddleware } from "hono/factory";
import type { Scope } from "@/lib/auth/scopes";
import { DASHBOARD_TOKEN_KIND, TokenError } from "@/lib/auth/tokens";
import { rateLimitHeaders } from "@/lib/service/rate-limit/consume";
import { ApiError } from "@/lib/service/errors";
import type { AppEnv } from "../types";

const REALM = 'Bearer realm="photo-missions"';

function invalidToken(detail: string): ApiError {
  const description = detail.replaceAll('"', "'");
  return new ApiError(401, "invalid_token", `The access token is not valid: ${detail}.`, {
    headers: { "WWW-Authenticate": `${REALM}, error="invalid_token", error_description="${description}"` },
  });
}

export function authenticate(scope: Scope) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { ctx } = c.var;
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i.exec(header);
    if (!match?.[1]) {
      throw new ApiError(401, "unauthorized", "Send an access token as `Authorization: Bearer <token>`.", {
        headers: { "WWW-Authenticate": REALM },
      });
    }

    let token;
    try {
      token = await ctx.keys.verify(match[1]);
    } catch (error) {
      if (error instanceof TokenError) throw invalidToken(error.message);
      throw error;
    }

    // Dashboard tokens carry kind "dashboard" (signed, so it cannot be added to another token).
    const { perMinute, perHour } = token.kind === DASHBOARD_TOKEN_KIND ? ctx.config.dashboardRateLimit : ctx.config.rateLimit;
    const usage = await ctx.limiter.consume(
      `client:${token.client_id}`,
      [
        { seconds: 60, limit: perMinute },
        { seconds: 3600, limit: perHour },
      ],
      { activeClientId: token.client_id },
    );
    if (!usage.clientActive) throw invalidToken("the client was revoked");

    const headers = rateLimitHeaders(usage.binding);
    c.set("responseHeaders", { ...c.var.responseHeaders, ...headers });
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    if (!usage.allowed) {
      throw new ApiError(
        429,
        "rate_limited",
        `Rate limit of ${usage.binding.limit} requests per ${usage.binding.seconds === 60 ? "minute" : "hour"} exceeded; retry after ${usage.retryAfterSeconds} s.`,
        { headers: { "Retry-After": String(usage.retryAfterSeconds) } },
      );
    }

    if (!token.scopes.has(scope)) {
      throw new ApiError(403, "insufficient_scope", `This request needs the scope "${scope}".`, {
        headers: { "WWW-Authenticate": `${REALM}, error="insufficient_scope", scope="${scope}"` },
      });
    }

    c.set("caller", { token, clientId: token.client_id, orgId: token.org, zoomerId: token.zoomer });
    await next();
  });
}

/** The caller's organisation; partner routes only (zoomer tokens never carry partner scopes). */
export function callerOrg(c: { var: AppEnv["Variables"] }): string {
  const org = c.var.caller.orgId;
  if (!org) throw new ApiError(403, "insufficient_scope", "These credentials do not belong to a partner organisation.");
  return org;
}
