import { desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import type { OrgApiKeyRecord } from "@/lib/schemas/credentials";
import { serializeApiKey } from "./serialize-credentials";

/** The organisation's order-interface API keys, revoked ones included, newest first. */
export async function listApiKeys({ db, orgId }: { db: Db; orgId: string }): Promise<OrgApiKeyRecord[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      keyPrefix: apiKeys.keyPrefix,
      access: apiKeys.access,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.orgId, orgId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(serializeApiKey);
}
