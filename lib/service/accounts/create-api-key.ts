import { and, count, eq, isNull, sql } from "drizzle-orm";
import { hashSecret } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { createId, createSecret } from "@/lib/ids/create-id";
import { ApiError } from "@/lib/service/errors";

/**
 * Active (unrevoked) API keys one organisation may hold. The plan's request limit counts per
 * organisation whatever the key, so more keys buy no throughput; the cap keeps the set of live
 * secrets small enough to audit (one per integration and environment, with room to rotate).
 */
export const MAX_ACTIVE_API_KEYS = 25;

/** An order-interface API key: shown once; stored as a digest with a short prefix for display. */
export async function createApiKey({ db, orgId, name, access = "read_write" }: { db: Db; orgId: string; name: string; access?: "read_write" | "read_only" }) {
  const id = createId("apiKey");
  const apiKey = createSecret("pm_live", 32);
  const prefix = apiKey.slice(0, 12);
  return db.transaction(async (tx) => {
    // Two creations racing for the last place are serialised per organisation (a transaction
    // lock, released at commit; it takes no row lock that order work could be waiting on).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`api_keys:${orgId}`}))`);
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt)));
    if ((active?.n ?? 0) >= MAX_ACTIVE_API_KEYS) {
      throw new ApiError(
        409,
        "api_key_limit_reached",
        `An organisation holds at most ${MAX_ACTIVE_API_KEYS} active API keys; revoke one it no longer uses first.`,
      );
    }
    const [row] = await tx
      .insert(apiKeys)
      .values({ id, orgId, name, access, keyPrefix: prefix, keyHash: hashSecret(apiKey) })
      .returning({ createdAt: apiKeys.createdAt });
    if (!row) throw new Error("insert returned no row");
    return { id, name, access, api_key: apiKey, prefix, created_at: row.createdAt.toISOString() };
  });
}
