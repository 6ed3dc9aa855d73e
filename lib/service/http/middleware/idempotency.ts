// Idempotency-Key on the order interface's POSTs (IETF draft-ietf-httpapi-idempotency-key-header):
// the first request with a key runs and its response is stored; a retry with the same key and the
// same request gets that response again (`Idempotent-Replayed: true`); the same key with a
// different request is 422; a retry while the first is still running is 409. Keys are per
// organisation and kept 24 hours. A 5xx is not stored, so the retry runs again.
import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { queryRows, type Db } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import { ApiError } from "@/lib/service/errors";
import type { AppEnv } from "../types";
import { callerOrg } from "./authenticate";

export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** How long a first request may hold its key before a retry may run in its place (it died). */
const LEASE_SECONDS = 60;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Response headers worth replaying (the rate-limit ones describe the retry, not the original). */
const REPLAYED_HEADERS = ["content-type", "location"];

/** The claimed key of a request in flight, and whether its handler already stored the response. */
interface Claim {
  orgId: string;
  key: string;
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

  // Claim the key: a new row, or one whose retention or lease ran out (its request died).
  const claimed = await queryRows<{ key: string }>(
    db,
    sql`insert into idempotency_keys (org_id, key, request_hash, status, locked_until, created_at)
        values (${orgId}, ${key}, ${requestHash}, 'running', now() + make_interval(secs => ${LEASE_SECONDS}), now())
        on conflict (org_id, key) do update
          set request_hash = excluded.request_hash, status = 'running', locked_until = excluded.locked_until,
              created_at = now(), response_status = null, response_body = null, response_headers = null
          where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})
             or (idempotency_keys.status = 'running' and idempotency_keys.locked_until < now()
                 and idempotency_keys.request_hash = excluded.request_hash)
        returning key`,
  );

  if (claimed.length === 0) {
    const [stored] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)))
      .limit(1);
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

  const release = () => db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)));
  const claim: Claim = { orgId, key, storedByHandler: false };
  claims.set(c.req.raw, claim);
  try {
    await next();
  } catch (error) {
    // Store what the client will see for errors of its request (4xx); let a 5xx be retried.
    if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
      await store(c, orgId, key, error.status, JSON.stringify(error.toBody(c.req.path)), { "content-type": "application/problem+json" });
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
  await store(c, orgId, key, response.status, text, headers);
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
    await writeStored(tx, claim.orgId, claim.key, status, JSON.stringify(value), { "content-type": "application/json", ...headersOf(value) });
    claim.storedByHandler = true;
  };
}

async function store(c: { var: AppEnv["Variables"] }, orgId: string, key: string, status: number, body: string, headers: Record<string, string>) {
  await writeStored(c.var.ctx.db, orgId, key, status, body, headers);
}

async function writeStored(db: Db, orgId: string, key: string, status: number, body: string, headers: Record<string, string>) {
  await db
    .update(idempotencyKeys)
    .set({ status: "done", responseStatus: status, responseBody: body, responseHeaders: headers, lockedUntil: null })
    .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)));
}

/** Drops keys past their retention; run by housekeeping. */
export async function pruneIdempotencyKeys(db: AppEnv["Variables"]["ctx"]["db"]): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`));
}
