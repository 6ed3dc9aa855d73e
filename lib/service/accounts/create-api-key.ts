import { hashSecret } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { createId, createSecret } from "@/lib/ids/create-id";

/** An order-interface API key: shown once; stored as a digest with a short prefix for display. */
export async function createApiKey({ db, orgId, name, access = "read_write" }: { db: Db; orgId: string; name: string; access?: "read_write" | "read_only" }) {
  const id = createId("apiKey");
  const apiKey = createSecret("pm_live", 32);
  const prefix = apiKey.slice(0, 12);
  const [row] = await db
    .insert(apiKeys)
    .values({ id, orgId, name, access, keyPrefix: prefix, keyHash: hashSecret(apiKey) })
    .returning({ createdAt: apiKeys.createdAt });
  if (!row) throw new Error("insert returned no row");
  return { id, name, access, api_key: apiKey, prefix, created_at: row.createdAt.toISOString() };
}
