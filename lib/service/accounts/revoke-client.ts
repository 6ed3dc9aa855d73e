import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiClients } from "@/lib/db/schema";
import { notFound } from "@/lib/service/errors";

/**
 * Revokes a client. Its tokens stop working at once: every authenticated request checks the
 * client in the same statement that counts it against the rate limit.
 */
export async function revokeClient({ db, clientId, orgId }: { db: Db; clientId: string; orgId?: string }) {
  const conditions = [eq(apiClients.id, clientId), isNull(apiClients.revokedAt)];
  if (orgId) conditions.push(eq(apiClients.orgId, orgId));
  const rows = await db
    .update(apiClients)
    .set({ revokedAt: new Date() })
    .where(and(...conditions))
    .returning({ id: apiClients.id });
  if (rows.length === 0) throw notFound("active client");
}
