import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { ROLE_SCOPES } from "@/lib/auth/scopes";
import { hashSecret } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import { apiClients } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";

/**
 * The id of the organisation's dashboard client: the api_clients row (kind "dashboard", name
 * "Dashboard") that every dashboard token of the organisation names, created on first use.
 * Concurrent first uses create one row: a partial unique index allows one active dashboard client
 * per organisation, and the losers of the insert read the winner's row. Its secret is random and
 * thrown away (the token endpoint refuses dashboard clients anyway). Revoking it (operator
 * interface) cuts off every dashboard token of the organisation at once; the next token request
 * then creates a fresh one.
 */
export async function ensureDashboardClient({ db, orgId }: { db: Db; orgId: string }): Promise<string> {
  const find = async () => {
    const [row] = await db
      .select({ id: apiClients.id })
      .from(apiClients)
      .where(and(eq(apiClients.orgId, orgId), eq(apiClients.kind, "dashboard"), isNull(apiClients.revokedAt)))
      .limit(1);
    return row?.id;
  };
  const existing = await find();
  if (existing) return existing;
  await db
    .insert(apiClients)
    .values({
      id: createId("client"),
      kind: "dashboard",
      orgId,
      name: "Dashboard",
      scopes: [...ROLE_SCOPES.admin],
      secretHash: hashSecret(randomBytes(32).toString("base64url")),
    })
    .onConflictDoNothing();
  const created = await find();
  if (!created) throw new Error(`no dashboard client for ${orgId} after creating one`);
  return created;
}
