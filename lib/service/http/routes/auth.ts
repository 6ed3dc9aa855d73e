import { createRoute, z, type OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { issueToken, OAuthError, type TokenRequest } from "@/lib/service/auth/issue-token";
import { rateLimitHeaders } from "@/lib/service/rate-limit/consume";
import { unstorableReason } from "@/lib/text/storable-text";
import { JSON_TOO_DEEP_DETAIL, jsonNestsDeeperThan } from "../json-depth";
import { clientAddress } from "../client-address";
import { isJsonMediaType } from "../middleware/json-body";
import { rateLimitHeaderDocs, retryAfterHeaderDoc } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Authentication"];

/** Longest parameters the token endpoint reads (ours are far shorter); longer ones are invalid_request. */
export const TOKEN_PARAMETER_LIMITS = { client_id: 100, client_secret: 200, scope: 1000, grant_type: 100 } as const;

const TokenRequestSchema = z
  .object({
    grant_type: z.literal("client_credentials"),
    client_id: z.string().max(TOKEN_PARAMETER_LIMITS.client_id).openapi({ example: "cli_01jd3m8k2b7yq4r6t9v0wxyzab" }),
    client_secret: z.string().max(TOKEN_PARAMETER_LIMITS.client_secret),
    scope: z
      .string()
      .max(TOKEN_PARAMETER_LIMITS.scope)
      .optional()
      .openapi({ description: "Space-separated scopes; omitted means all the client may have.", example: "missions:read missions:write" }),
  })
  .openapi("TokenRequest");

const TokenResponseSchema = z
  .object({
    access_token: z.string().openapi({
      description:
        "A signed JWT (typ at+jwt, EdDSA), claims iss, aud, sub, client_id, scope, iat, exp and jti; a partner's also `org`; a zoomer's also `zoomer` (their `usr_…` id) and `zoomer_name` (their name, cut to 40 characters, for display only).",
    }),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().openapi({ example: 86400 }),
    scope: z.string().openapi({ example: "missions:read missions:write" }),
  })
  .openapi("TokenResponse");

const OAuthErrorSchema = z
  .object({
    error: z.enum(["invalid_request", "invalid_client", "invalid_scope", "unsupported_grant_type"]),
    error_description: z.string(),
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string(),
    detail: z.string(),
  })
  .openapi("OAuthError", {
    description:
      "RFC 6749 §5.2 error (`error`, `error_description`) served as application/json so standard OAuth clients can read it; it also carries the problem-details members.",
  });

const oauthError = (description: string) => ({ description, content: { "application/json": { schema: OAuthErrorSchema } } });

// Documented here but served by a plain handler: OAuth errors must keep the RFC 6749 shape, so the
// body is parsed by hand instead of by the schema validator.
const tokenRoute: RouteConfig = {
  method: "post",
  path: "/auth/token",
  operationId: "requestAccessToken",
  tags,
  summary: "Get an access token (client credentials)",
  description:
    "OAuth 2.0 client-credentials grant. Accepts the spec's JSON body or the standard form body " +
    "(`application/x-www-form-urlencoded`), with client authentication in the body or by HTTP Basic. " +
    "No bearer token needed. Limited per client and per address against guessing. Responses carry `Cache-Control: no-store`.",
  request: {
    body: {
      required: true,
      content: {
        "application/json": { schema: TokenRequestSchema },
        "application/x-www-form-urlencoded": { schema: TokenRequestSchema },
      },
    },
  },
  responses: {
    200: { description: "The access token.", content: { "application/json": { schema: TokenResponseSchema } } },
    400: oauthError("invalid_request, invalid_scope or unsupported_grant_type."),
    401: oauthError("invalid_client; with `WWW-Authenticate: Basic` when the client used HTTP Basic."),
    415: oauthError("The body is neither JSON nor a form."),
    429: { ...oauthError("Too many token requests; see Retry-After."), headers: { ...retryAfterHeaderDoc, ...rateLimitHeaderDocs } },
  },
};

const jwksRoute = createRoute({
  method: "get",
  path: "/auth/jwks.json",
  operationId: "getJwks",
  tags,
  summary: "Token signing keys (JWKS)",
  description: "Public keys that verify access tokens, by `kid` (RFC 7517).",
  responses: {
    200: {
      description: "The key set.",
      content: { "application/json": { schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi("Jwks") } },
    },
  },
});

function oauthErrorResponse(c: Context<AppEnv>, error: OAuthError, extraHeaders: Record<string, string> = {}) {
  const body = {
    error: error.error,
    error_description: error.message,
    type: `https://photo-missions.dev/problems/${error.error.replaceAll("_", "-")}`,
    title: error.status === 401 ? "Unauthorized" : error.status === 429 ? "Too Many Requests" : "Bad Request",
    status: error.status,
    code: error.error,
    detail: error.message,
  };
  return c.body(JSON.stringify(body), error.status as 400, {
    "content-type": "application/json",
    "cache-control": "no-store",
    pragma: "no-cache",
    ...error.headers,
    ...extraHeaders,
  });
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded before base64. */
function parseBasic(header: string | undefined): { id: string; secret: string } | "malformed" | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  try {
    const formDecode = (s: string) => decodeURIComponent(s.replaceAll("+", " "));
    const id = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    // Text PostgreSQL cannot store, or longer than any client's, could never match a client and
    // must not reach a query.
    if (unstorableReason(id) || unstorableReason(secret)) return "malformed";
    if (id.length > TOKEN_PARAMETER_LIMITS.client_id || secret.length > TOKEN_PARAMETER_LIMITS.client_secret) return "malformed";
    return { id, secret };
  } catch {
    return "malformed";
  }
}

async function readTokenBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const contentType = c.req.header("content-type");
  const text = await c.req.text();
  if (text.length > 8192) throw new OAuthError(400, "invalid_request", "The request body is too large.");
  if (isJsonMediaType(contentType)) {
    if (jsonNestsDeeperThan(text)) throw new OAuthError(400, "invalid_request", JSON_TOO_DEEP_DETAIL);
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
      return parsed as Record<string, unknown>;
    } catch {
      throw new OAuthError(400, "invalid_request", "The body is not a JSON object.");
    }
  }
  if (contentType?.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  throw new OAuthError(415, "invalid_request", "Send the token request as application/x-www-form-urlencoded or application/json.");
}

const optionalString = (value: unknown, name: keyof typeof TOKEN_PARAMETER_LIMITS): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new OAuthError(400, "invalid_request", `${name} must be a string.`);
  const max = TOKEN_PARAMETER_LIMITS[name];
  if (value.length > max) throw new OAuthError(400, "invalid_request", `${name} is longer than ${max} characters.`);
  const unstorable = unstorableReason(value);
  if (unstorable) throw new OAuthError(400, "invalid_request", `${name}: ${unstorable}`);
  return value;
};

export function registerAuthRoutes(app: OpenAPIHono<AppEnv>) {
  // POST /auth/token – client-credentials grant
  app.openAPIRegistry.registerPath(tokenRoute);
  app.post(tokenRoute.path, async (c) => {
    const { ctx } = c.var;
    try {
      const ipUsage = await ctx.limiter.consume(`token-ip:${clientAddress(c, ctx.config.trustProxy)}`, [
        { seconds: 60, limit: ctx.config.rateLimit.tokenPerMinutePerIp },
      ]);
      if (!ipUsage.allowed) {
        const error = new OAuthError(429, "invalid_request", "Too many token requests from this address.", {
          "Retry-After": String(ipUsage.retryAfterSeconds),
        });
        return oauthErrorResponse(c, error, rateLimitHeaders(ipUsage.binding));
      }

      const body = await readTokenBody(c);
      const basic = parseBasic(c.req.header("authorization"));
      if (basic === "malformed") throw new OAuthError(401, "invalid_client", "Malformed HTTP Basic credentials.");
      const bodyId = optionalString(body.client_id, "client_id");
      const bodySecret = optionalString(body.client_secret, "client_secret");
      if (basic && (bodySecret !== undefined || (bodyId !== undefined && bodyId !== basic.id))) {
        throw new OAuthError(400, "invalid_request", "Authenticate the client one way: HTTP Basic or body parameters, not both.");
      }
      const request: TokenRequest = {
        grantType: optionalString(body.grant_type, "grant_type"),
        clientId: basic ? basic.id : bodyId,
        clientSecret: basic ? basic.secret : bodySecret,
        scope: optionalString(body.scope, "scope"),
        usedBasic: Boolean(basic),
      };

      if (request.clientId) {
        const clientUsage = await ctx.limiter.consume(`token-client:${request.clientId}`, [{ seconds: 60, limit: ctx.config.rateLimit.tokenPerMinute }]);
        if (!clientUsage.allowed) {
          const error = new OAuthError(429, "invalid_request", "Too many token requests for this client.", {
            "Retry-After": String(clientUsage.retryAfterSeconds),
          });
          return oauthErrorResponse(c, error, rateLimitHeaders(clientUsage.binding));
        }
      }

      const token = await issueToken(ctx, request);
      return c.json(token, 200, { "Cache-Control": "no-store", Pragma: "no-cache" });
    } catch (error) {
      if (error instanceof OAuthError) return oauthErrorResponse(c, error);
      throw error;
    }
  });

  // GET /auth/jwks.json – public signing keys
  app.openapi(jwksRoute, (c) => c.json(c.var.ctx.keys.jwks(), 200, { "Cache-Control": "public, max-age=300" }));
}
