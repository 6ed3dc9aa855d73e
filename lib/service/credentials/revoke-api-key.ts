import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/service/errors";
import type { CredentialCache } from "./credential-cache";

/**
 * Revokes one of the organisation's API keys; revoking a revoked key changes nothing. Another
 * organisation's key is 404. This process stops accepting the key at once (its verified
 * credentials are forgotten); other instances within CREDENTIAL_TTL_MS.
 */
export async function revokeApiKey({ db, credentials, orgId, keyId }: { db: Db; credentials: CredentialCache; orgId: string; keyId: string }): Promise<void> {
  const ofOrg = and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, orgId));
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(ofOrg, isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  // After the write: a request verifying the key meanwhile cannot store it again (generation).
  credentials.invalidateOrg(orgId);
  if (revoked.length > 0) return;
  const [existing] = await db.select({ id: apiKeys.id }).from(apiKeys).where(ofOrg).limit(1);
  if (!existing) throw notFound("API key");
}
