// API clients and API keys as the credentials routes show them: never a secret or its digest.
import { PARTNER_SCOPES, type Scope } from "@/lib/auth/scopes";
import type { apiClients, apiKeys } from "@/lib/db/schema";
import type { ApiClientRecord, OrgApiKeyRecord } from "@/lib/schemas/credentials";
import { isoOrNull } from "@/lib/service/iso-or-null";

type ClientRow = Pick<typeof apiClients.$inferSelect, "id" | "name" | "scopes" | "createdAt" | "revokedAt">;
type ApiKeyRow = Pick<typeof apiKeys.$inferSelect, "id" | "name" | "keyPrefix" | "access" | "createdAt" | "lastUsedAt" | "revokedAt">;

const isPartnerScope = (s: string): s is Scope => (PARTNER_SCOPES as readonly string[]).includes(s);

export function serializeClient(row: ClientRow): ApiClientRecord {
  return {
    id: row.id,
    name: row.name,
    // What its tokens can carry: the token endpoint grants partner scopes only.
    scopes: row.scopes.filter(isPartnerScope),
    created_at: row.createdAt.toISOString(),
    revoked_at: isoOrNull(row.revokedAt),
  };
}

export function serializeApiKey(row: ApiKeyRow): OrgApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.keyPrefix,
    access: row.access,
    created_at: row.createdAt.toISOString(),
    last_used_at: isoOrNull(row.lastUsedAt),
    revoked_at: isoOrNull(row.revokedAt),
  };
}
