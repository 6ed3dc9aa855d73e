import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiClients, type CLIENT_KINDS } from "@/lib/db/schema";
import { notFound } from "@/lib/service/errors";
import { CLIENT_REVOKED_CHANNEL } from "@/lib/service/rate-limit/leased-limiter";

export interface RevokeClientOptions {
  db: Db;
  clientId: string;
  /** Only a client of this organisation… */
  orgId?: string;
  /** …and of this kind; any other is answered as unknown. */
  kind?: (typeof CLIENT_KINDS)[number];
}

/**
 * Revokes a client. Its tokens stop working: every authenticated request checks the client in its
 * instance's limiter, which keeps that answer in memory (callers tell this process's limiter, so
 * here at once; on PostgreSQL the NOTIFY sent at commit tells every other instance's when it
 * arrives, an answer is kept at most CREDENTIAL_TTL_MS, and an instance that is not listening asks
 * the database per request). Says whether this call
 * revoked it or it already was; no matching client at all is 404.
 */
export async function revokeClient({ db, clientId, orgId, kind }: RevokeClientOptions): Promise<"revoked" | "already_revoked"> {
  const conditions = [eq(apiClients.id, clientId)];
  if (orgId) conditions.push(eq(apiClients.orgId, orgId));
  if (kind) conditions.push(eq(apiClients.kind, kind));
  const revoked = await db.transaction(async (tx) => {
    const rows = await tx
      .update(apiClients)
      .set({ revokedAt: new Date() })
      .where(and(...conditions, isNull(apiClients.revokedAt)))
      .returning({ id: apiClients.id });
    // Delivered at commit, the moment the revocation is visible (lib/service/rate-limit/leased-limiter.ts).
    if (rows.length > 0) await tx.execute(sql`select pg_notify(${CLIENT_REVOKED_CHANNEL}, ${clientId})`);
    return rows.length > 0;
  });
  if (revoked) return "revoked";
  const [existing] = await db
    .select({ id: apiClients.id })
    .from(apiClients)
    .where(and(...conditions))
    .limit(1);
  if (!existing) throw notFound("client");
  return "already_revoked";
}
