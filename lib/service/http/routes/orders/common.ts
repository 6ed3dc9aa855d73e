// What the order interface's route modules share: the tag, the two authentications, the path and
// header parameters, the replay header of idempotent POSTs, and what a handler reads from a request.
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { validationFailed } from "@/lib/service/errors";
import { ORDER_CREDENTIALS, authenticate, callerOrg } from "../../middleware/authenticate";
import { readJsonBody } from "../../middleware/json-body";
import { jsonResponse } from "../../openapi-common";
import type { AppEnv } from "../../types";

/** Mounts one operation on the order interface's app (./index.ts mounts them in the document's order). */
export type MountOperation = (app: OpenAPIHono<AppEnv>) => void;

export const tags = ["Orders"];
export const read = authenticate({ scope: "orders:read", accept: ORDER_CREDENTIALS, rateLimit: "plan" });
export const write = authenticate({ scope: "orders:write", accept: ORDER_CREDENTIALS, rateLimit: "plan" });

export const OrderIdParam = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: "id", in: "path" }, example: "ord_06h0m4b7yq4r6t9v0wxyzab3k" }),
});

export const IdempotencyHeader = z.object({
  "idempotency-key": z.string().max(255).optional().openapi({
    description:
      "Makes the POST safe to retry: the same key with the same request answers the first response again (with `Idempotent-Replayed: true`) for 24 hours; the same key with another request is 422; while the first is running, 409.",
    example: "5f2b1a9e-8c4d-4f2e-9a61-3f1f3d0c7a10",
  }),
});

const replayedHeader = {
  "Idempotent-Replayed": {
    description: "`true` when this is the stored response of an earlier request with the same Idempotency-Key.",
    schema: { type: "string" as const },
  },
};

export const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
export const withReplay = <T extends z.ZodType>(schema: T, description: string) => {
  const response = jsonResponse(schema, description);
  return { ...response, headers: { ...response.headers, ...replayedHeader } };
};

// ——— what the handlers read from a request ———

export type RouteContext = { var: AppEnv["Variables"]; req: { param(name: "id"): string } };

/** The caller's organisation and the order named in the path. */
export function orderOf(c: RouteContext): { orgId: string; orderId: string } {
  return { orgId: callerOrg(c), orderId: c.req.param("id") };
}

export const pageOf = (query: { page: number; per_page: number }) => ({ page: query.page, perPage: query.per_page });

/** An optional JSON body (cancel's reason): empty is `{}`, anything else is parsed and validated as a body is. */
export async function optionalBody<T extends z.ZodType>(c: { req: { text(): Promise<string> } }, schema: T): Promise<z.output<T> | Record<string, never>> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  const body = schema.safeParse(readJsonBody(text));
  if (!body.success) throw validationFailed(body.error);
  return body.data;
}
