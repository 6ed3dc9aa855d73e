// The stored Idempotency-Keys of the order interface's POSTs (table idempotency_keys): claiming a
// key for a request, reading what an earlier request with it left, storing its response, letting
// it go, and pruning keys past their retention. The HTTP middleware
// (lib/service/http/middleware/idempotency.ts) decides what a request gets from these; the worker's
// housekeeping prunes. Keys are per organisation and kept IDEMPOTENCY_RETENTION_HOURS.
import { and, eq, lt, sql } from "drizzle-orm";
import { queryPrepared, type Db } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";

export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** How long a first request may hold its key before a retry may run in its place (it died). */
const LEASE_SECONDS = 60;

export interface IdempotencyKeyRef {
  orgId: string;
  key: string;
}

/**
 * Claims the key for a request with this hash: a new row, or one whose retention ran out, or whose
 * lease ran out while it was running the same request (that request died). False when another
 * request holds it, or a finished one left its answer.
 */
export async function claimIdempotencyKey(db: Db, { orgId, key }: IdempotencyKeyRef, requestHash: string): Promise<boolean> {
  // Prepared: every order-interface POST with a key runs it first (PGlite would plan it each time).
  const claimed = await queryPrepared<{ key: string }>(
    db,
    "idempotency_claim",
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
  return claimed.length > 0;
}

/** The key's row as an earlier request left it, or undefined when it has gone since. */
export async function findIdempotencyKey(db: Db, { orgId, key }: IdempotencyKeyRef) {
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return stored;
}

/** Lets a claimed key go, so a retry runs again (the request failed in a way worth retrying). */
export async function releaseIdempotencyKey(db: Db, { orgId, key }: IdempotencyKeyRef): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)));
}

/** Stores the response a claimed key's request answered (in `db`, which may be the handler's transaction). */
export async function storeIdempotentResponse(
  db: Db,
  { orgId, key }: IdempotencyKeyRef,
  response: { status: number; body: string; headers: Record<string, string> },
): Promise<void> {
  // Prepared, and not built by drizzle's query builder (about 0.06 ms a call): every keyed POST stores its answer.
  await queryPrepared(
    db,
    "idempotency_store",
    sql`update idempotency_keys
        set status = 'done', response_status = ${response.status}::int, response_body = ${response.body}::text,
            response_headers = ${JSON.stringify(response.headers)}::jsonb, locked_until = null
        where org_id = ${orgId} and key = ${key}`,
  );
}

/** Drops keys past their retention; run by housekeeping. */
export async function pruneIdempotencyKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS})`));
}
