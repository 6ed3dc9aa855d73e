import type { Scope } from "@/lib/auth/scopes";
import { hashSecret } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import { apiClients } from "@/lib/db/schema";
import { createId, createSecret } from "@/lib/ids/create-id";

export interface CreateClientOptions {
  db: Db;
  name: string;
  scopes: Scope[];
  kind: "partner" | "zoomer" | "dashboard";
  orgId?: string;
  zoomerId?: string;
}

/** Creates OAuth client credentials; the secret is returned once and stored only as a digest. */
export async function createClient({ db, name, scopes, kind, orgId, zoomerId }: CreateClientOptions) {
  const clientId = createId("client");
  const clientSecret = createSecret("cs");
  const [row] = await db
    .insert(apiClients)
    .values({
      id: clientId,
      kind,
      orgId: orgId ?? null,
      zoomerId: zoomerId ?? null,
      name,
      scopes,
      secretHash: hashSecret(clientSecret),
    })
    .returning({ createdAt: apiClients.createdAt });
  if (!row) throw new Error("insert returned no row");
  return { client_id: clientId, client_secret: clientSecret, scopes, name, created_at: row.createdAt.toISOString() };
}
