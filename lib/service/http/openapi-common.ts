// Pieces every route definition shares, so the OpenAPI document states each route's scope, error
// responses and rate-limit headers exactly as the middleware enforces them.
import { z } from "@hono/zod-openapi";
import type { Scope } from "@/lib/auth/scopes";

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "https://photo-missions.dev/problems/not-found" }),
    title: z.string().openapi({ example: "Not Found" }),
    status: z.number().int().openapi({ example: 404 }),
    detail: z.string().optional().openapi({ example: "No mission with that id." }),
    instance: z.string().optional().openapi({ example: "/api/v1/missions/mission_01jd…" }),
    code: z.string().openapi({ description: "Stable machine-readable error code.", example: "not_found" }),
    errors: z
      .array(
        z.object({
          pointer: z.string().openapi({
            description: "JSON pointer into the request body, or the parameter name when `in` is query/path.",
            example: "/bounds/coordinates/0/3",
          }),
          message: z.string(),
          in: z.enum(["body", "query", "path", "header"]).optional(),
          code: z.string().optional(),
        }),
      )
      .optional(),
  })
  .openapi("Problem");

export const retryAfterHeaderDoc = { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" as const } } };

export const rateLimitHeaderDocs = {
  "X-RateLimit-Limit": { description: "Requests allowed in the window that binds first.", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in that window.", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) when that window resets.", schema: { type: "integer" as const } },
};

/** A problem+json response of the given meaning, for statuses the shared helpers do not describe. */
export const problem = (description: string, headers?: Record<string, { description: string; schema: { type: "integer" | "string" } }>) => ({
  description,
  content: { "application/problem+json": { schema: ProblemSchema } },
  ...(headers ? { headers } : {}),
});

const ERROR_DESCRIPTIONS = {
  400: "Malformed request (e.g. the body is not valid JSON).",
  401: "Missing, invalid, expired or revoked access token (`WWW-Authenticate` says which).",
  402: "The plan's monthly photo quota would be exceeded (`plan_quota_exceeded`).",
  403: "The token lacks the scope this route needs (`insufficient_scope`).",
  404: "No such object in the caller's organisation.",
  409: "The object's state does not allow this change.",
  412: "The object changed since the version named in If-Match.",
  413: "The request body is larger than allowed.",
  415: "The request body is not of an accepted media type.",
  422: "The request is well-formed but invalid; `errors[]` points at each problem.",
} as const;

type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** Error responses of an authenticated route: the auth and rate-limit ones plus those listed. */
export function errorResponses(...statuses: ErrorStatus[]) {
  const out: Record<number, ReturnType<typeof problem>> = {};
  for (const status of [...new Set<ErrorStatus>([401, 403, ...statuses])].sort()) {
    out[status] = problem(ERROR_DESCRIPTIONS[status], status === 401 ? undefined : rateLimitHeaderDocs);
  }
  out[429] = problem("Rate limit exceeded.", { ...retryAfterHeaderDoc, ...rateLimitHeaderDocs });
  out[500] = problem(INTERNAL_ERROR_DESCRIPTION);
  return out;
}

const INTERNAL_ERROR_DESCRIPTION = "Unexpected failure on our side; `detail` and the X-Request-Id header name the request id to quote.";

/** Error responses of a route that needs no token. */
export function publicErrorResponses(...statuses: ErrorStatus[]) {
  const out: Record<number, ReturnType<typeof problem>> = {};
  for (const status of statuses) out[status] = problem(ERROR_DESCRIPTIONS[status]);
  out[500] = problem(INTERNAL_ERROR_DESCRIPTION);
  return out;
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string, status: "authenticated" | "public" = "authenticated") {
  return {
    description,
    content: { "application/json": { schema } },
    ...(status === "authenticated" ? { headers: rateLimitHeaderDocs } : {}),
  };
}

/** A body-less success (204) of an authenticated route: the rate-limit headers still come. */
export const noContent = (description: string) => ({ description, headers: rateLimitHeaderDocs });

export const security = (scope: Scope) => [{ oauth2: [scope] }];
/** The order interface takes the organisation's API key or an OAuth token with the scope. */
export const orderSecurity = (scope: "orders:read" | "orders:write"): Record<string, string[]>[] => [{ apiKey: [] }, { oauth2: [scope] }];
export const adminSecurity = [{ adminToken: [] }];

export const ListMetaSchema = z
  .object({
    total: z.number().int().openapi({ description: "Items matching the filters, over all pages." }),
    page: z.number().int().openapi({ description: "This page, from 1." }),
    per_page: z.number().int(),
  })
  .openapi("ListMeta");

/** Longest id accepted in a path (ours are about 35 characters); longer ones are 422, not a lookup. */
export const MAX_ID_LENGTH = 100;
/** Longest comma-separated filter list (status=…) and box (bbox=…) in a query. */
export const MAX_FILTER_LENGTH = 200;

/** Deeper pages are refused: an offset past this is never useful, and would overflow the database's. */
export const MAX_PAGE = 10_000;

export const PagingQuery = {
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .default(1)
    .openapi({ description: `Page number, from 1 (at most ${MAX_PAGE}).`, example: 1 }),
  per_page: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: "Items per page (at most 100).", example: 20 }),
};
