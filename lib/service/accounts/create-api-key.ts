import { hashSecret } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { createId, createSecret } from "@/lib/ids/create-id";

/** An order-interface API key: shown once; stored as a digest with a short prefix for display. */
export async function createApiKey({ db, orgId, name }: { db: Db; orgId: string; name: string }) {
  const id = createId("apiKey");
  const apiKey = createSecret("pm_live", 32);
  await db.insert(apiKeys).values({ id, orgId, name, keyPrefix: apiKey.slice(0, 12), keyHash: hashSecret(apiKey) });
  return { id, name, api_key: apiKey, prefix: apiKey.slice(0, 12) };
}
