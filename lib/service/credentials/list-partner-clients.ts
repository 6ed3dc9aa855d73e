import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiClients } from "@/lib/db/schema";
import type { ApiClientRecord } from "@/lib/schemas/credentials";
import { serializeClient } from "./serialize-credentials";

/** The organisation's partner API clients, revoked ones included, newest first (never its dashboard client). */
export async function listPartnerClients({ db, orgId }: { db: Db; orgId: string }): Promise<ApiClientRecord[]> {
  const rows = await db
    .select({ id: apiClients.id, name: apiClients.name, scopes: apiClients.scopes, createdAt: apiClients.createdAt, revokedAt: apiClients.revokedAt })
    .from(apiClients)
    .where(and(eq(apiClients.orgId, orgId), eq(apiClients.kind, "partner")))
    .orderBy(desc(apiClients.createdAt), desc(apiClients.id));
  return rows.map(serializeClient);
}
