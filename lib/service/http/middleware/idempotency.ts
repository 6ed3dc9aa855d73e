// Idempotency-Key on the order interface's POSTs (IETF draft-ietf-httpapi-idempotency-key-header):
// the first request with a key runs and its response is stored; a retry with the same key and the
// same request gets that response again (`Idempotent-Replayed: true`); the same key with a
// different request is 422; a retry while the first is still running is 409. Keys are per
// organisation and kept 24 hours. A 5xx is not stored, so the retry runs again.
import { createHash } from "node:crypto";
import { createMiddleware } from "hono/factory";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/service/errors";
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentResponse,
  type IdempotencyKeyRef,
} from "@/lib/service/idempotency/idempotency-keys";
import type { AppEnv } from "../types";
import { callerOrg } from "./authenticate";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Response headers worth replaying (the rate-limit ones describe the retry, not the original). */
const REPLAYED_HEADERS = ["content-type", "location"];

/** The claimed key of a request in flight, and whether its handler already stored the response. */
interface Claim extends IdempotencyKeyRef {
  storedByHandler: boolean;
}
const claims = new WeakMap<Request, Claim>();

export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(400, "invalid_idempotency_key", "Idempotency-Key must be 1–255 visible ASCII characters (a UUID is a good choice).", {
      errors: [{ pointer: "Idempotency-Key", in: "header", message: "1–255 visible ASCII characters." }],
    });
  }
  const { db } = c.var.ctx;
  const orgId = callerOrg(c);
  const body = await c.req.text();
  const requestHash = createHash("sha256").update(`${c.req.method} ${c.req.path}\n${body}`).digest("hex");
  const ref: IdempotencyKeyRef = { orgId, key };

  if (!(await claimIdempotencyKey(db, ref, requestHash))) {
    const stored = await findIdempotencyKey(db, ref);
    if (!stored)
      throw new ApiError(409, "idempotency_key_in_use", "A request with this Idempotency-Key is being processed; retry shortly.", {
        headers: { "Retry-After": "1" },
      });
    if (stored.requestHash !== requestHash) {
      throw new ApiError(422, "idempotency_key_reused", "This Idempotency-Key was used for a different request; use a new key for a new request.", {
        errors: [{ pointer: "Idempotency-Key", in: "header", message: "Already used with another method, path or body." }],
      });
    }
    if (stored.status === "running" || stored.responseStatus === null) {
      throw new ApiError(409, "idempotency_key_in_use", "The first request with this Idempotency-Key is still being processed; retry shortly.", {
        headers: { "Retry-After": "1" },
      });
    }
    const headers = new Headers((stored.responseHeaders as Record<string, string> | null) ?? {});
    for (const [name, value] of Object.entries(c.var.responseHeaders)) headers.set(name, value);
    headers.set("Idempotent-Replayed", "true");
    headers.set("Cache-Control", "no-store");
    headers.set("X-Content-Type-Options", "nosniff");
    return new Response(stored.responseBody, { status: stored.responseStatus, headers });
  }

  const release = () => releaseIdempotencyKey(db, ref);
  const claim: Claim = { ...ref, storedByHandler: false };
  claims.set(c.req.raw, claim);
  try {
    await next();
  } catch (error) {
    // Store what the client will see for errors of its request (4xx); let a 5xx be retried.
    if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
      const problem = JSON.stringify(error.toBody(c.req.path));
      await storeIdempotentResponse(db, ref, { status: error.status, body: problem, headers: { "content-type": "application/problem+json" } });
    } else await release();
    throw error;
  }
  const response = c.res;
  if (claim.storedByHandler) return; // committed with the handler's own write (storeJsonWithWrite)
  if (response.status >= 500 || response.status === 429) {
    await release();
    return;
  }
  // Read once and answered from the same text: a clone would tee the body into streams, and turn
  // @hono/node-server's direct write of a string body into a streamed one.
  const text = await response.text();
  c.res = undefined;
  c.res = new Response(text, { status: response.status, headers: response.headers });
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  await storeIdempotentResponse(db, ref, { status: response.status, body: text, headers });
});

/**
 * For a handler that answers `c.json(value, status)` with a value its write produced: a function to
 * call inside that write's transaction, storing the same response (JSON.stringify of the value,
 * `application/json` and `headersOf(value)`) there. The write and its key then commit together — no
 * separate statement afterwards, and no moment where the write is done but the key still says
 * "running". Undefined when the request carries no Idempotency-Key.
 */
export function storeJsonWithWrite<T>(
  c: { req: { raw: Request } },
  status: number,
  headersOf: (value: T) => Record<string, string>,
): ((tx: Db, value: T) => Promise<void>) | undefined {
  const claim = claims.get(c.req.raw);
  if (!claim) return undefined;
  return async (tx, value) => {
    const headers = { "content-type": "application/json", ...headersOf(value) };
    await storeIdempotentResponse(tx, claim, { status, body: JSON.stringify(value), headers });
    claim.storedByHandler = true;
  };
}
