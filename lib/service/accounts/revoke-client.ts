import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiClients, type CLIENT_KINDS } from "@/lib/db/schema";
import { notFound } from "@/lib/service/errors";

export interface RevokeClientOptions {
  db: Db;
  clientId: string;
  /** Only a client of this organisation… */
  orgId?: string;
  /** …and of this kind; any other is answered as unknown. */
  kind?: (typeof CLIENT_KINDS)[number];
}

/**
 * Revokes a client. Its tokens stop working at once: every authenticated request checks the
 * client in the same statement that counts it against the rate limit (callers also tell this
 * process's limiter, which caches that answer on the embedded database). Says whether this call
 * revoked it or it already was; no matching client at all is 404.
 */
export async function revokeClient({ db, clientId, orgId, kind }: RevokeClientOptions): Promise<"revoked" | "already_revoked"> {
  const conditions = [eq(apiClients.id, clientId)];
  if (orgId) conditions.push(eq(apiClients.orgId, orgId));
  if (kind) conditions.push(eq(apiClients.kind, kind));
  const rows = await db
    .update(apiClients)
    .set({ revokedAt: new Date() })
    .where(and(...conditions, isNull(apiClients.revokedAt)))
    .returning({ id: apiClients.id });
  if (rows.length > 0) return "revoked";
  const [existing] = await db
    .select({ id: apiClients.id })
    .from(apiClients)
    .where(and(...conditions))
    .limit(1);
  if (!existing) throw notFound("client");
  return "already_revoked";
}
