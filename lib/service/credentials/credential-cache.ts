// Verified credentials kept in memory for a few seconds, so the order interface does not read the
// database on every request to learn what an API key is (its organisation, access and plan) or
// which plan an OAuth token's organisation is on. The generic cost of every API-key request, solved
// once in authenticate() for all routes (issue 36).
//
// Bounds (documented in both revoke routes' OpenAPI descriptions and the README):
// - In this process a revocation or a plan change takes effect at once: revokeApiKey and the
//   operator's organisation update drop the organisation's entries (invalidateOrg).
// - On other instances (PostgreSQL, scale-out) an entry lives at most CREDENTIAL_TTL_MS, so a
//   revoked key stops working everywhere within that bound.
// Tenant safety: an entry is found only by the SHA-256 digest of the whole key (what the database
// is searched by), and holds the organisation the database gave for it; nothing is keyed by the
// organisation a request claims. A read that raced an invalidation is not stored (generation
// check), so a revocation can never be undone by a read in flight.
import type { Plan } from "@/lib/db/schema";

/** How long a verified credential is trusted without asking the database again. */
export const CREDENTIAL_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface CachedApiKey {
  id: string;
  orgId: string;
  access: "read_write" | "read_only";
  plan: Plan;
  lastUsedAt: Date | null;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

export class CredentialCache {
  private readonly keys = new Map<string, Entry<CachedApiKey>>();
  private readonly plans = new Map<string, Entry<Plan>>();
  /** Bumped by every invalidation; a database read started before one is not stored. */
  private generationCount = 0;

  constructor(
    private readonly ttlMs = CREDENTIAL_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** To hand back to setApiKey / setPlan: taken before reading from the database. */
  generation(): number {
    return this.generationCount;
  }

  apiKey(digest: string): CachedApiKey | undefined {
    return this.fresh(this.keys, digest);
  }

  setApiKey(digest: string, value: CachedApiKey, readAt: number): void {
    if (readAt === this.generationCount) this.store(this.keys, digest, value);
  }

  plan(orgId: string): Plan | undefined {
    return this.fresh(this.plans, orgId);
  }

  setPlan(orgId: string, plan: Plan, readAt: number): void {
    if (readAt === this.generationCount) this.store(this.plans, orgId, plan);
  }

  /** The organisation's keys or plan changed (a key revoked, the plan updated): forget what is known of it. */
  invalidateOrg(orgId: string): void {
    // A key read in flight does not know its organisation yet: no read started before this is stored.
    this.generationCount += 1;
    this.plans.delete(orgId);
    for (const [digest, entry] of this.keys) if (entry.value.orgId === orgId) this.keys.delete(digest);
  }

  private fresh<T>(map: Map<string, Entry<T>>, id: string): T | undefined {
    const entry = map.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      map.delete(id);
      return undefined;
    }
    return entry.value;
  }

  private store<T>(map: Map<string, Entry<T>>, id: string, value: T): void {
    if (this.ttlMs <= 0) return;
    map.delete(id);
    if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value ?? "");
    map.set(id, { value, expiresAt: this.now() + this.ttlMs });
  }
}
