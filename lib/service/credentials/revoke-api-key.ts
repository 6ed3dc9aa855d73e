import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/service/errors";

/** Revokes one of the organisation's API keys; revoking a revoked key changes nothing. Another organisation's key is 404. */
export async function revokeApiKey({ db, orgId, keyId }: { db: Db; orgId: string; keyId: string }): Promise<void> {
  const ofOrg = and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, orgId));
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(ofOrg, isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length > 0) return;
  const [existing] = await db.select({ id: apiKeys.id }).from(apiKeys).where(ofOrg).limit(1);
  if (!existing) throw notFound("API key");
}
