import { describe, expect, it } from "vitest";
import { CredentialCache, type CachedApiKey } from "./credential-cache";

const key = (orgId: string, id = "key_1"): CachedApiKey => ({ id, orgId, access: "read_write", plan: "enterprise", lastUsedAt: null });

describe("CredentialCache", () => {
  it("keeps a verified key for the TTL, then forgets it", () => {
    let now = 1_000;
    const cache = new CredentialCache(5_000, () => now);
    cache.setApiKey("digest-a", key("org_a"), cache.generation());
    expect(cache.apiKey("digest-a")?.orgId).toBe("org_a");
    now += 4_999;
    expect(cache.apiKey("digest-a")).toBeDefined();
    now += 1;
    expect(cache.apiKey("digest-a")).toBeUndefined();
  });

  it("drops only the invalidated organisation's keys and plan", () => {
    const cache = new CredentialCache(5_000, () => 0);
    cache.setApiKey("digest-a", key("org_a"), cache.generation());
    cache.setApiKey("digest-b", key("org_b", "key_2"), cache.generation());
    cache.setPlan("org_a", "developer", cache.generation());
    cache.setPlan("org_b", "business", cache.generation());
    cache.invalidateOrg("org_a");
    expect(cache.apiKey("digest-a")).toBeUndefined();
    expect(cache.plan("org_a")).toBeUndefined();
    expect(cache.apiKey("digest-b")?.id).toBe("key_2");
    expect(cache.plan("org_b")).toBe("business");
  });

  it("does not store a read that started before an invalidation (a revocation is never undone)", () => {
    const cache = new CredentialCache(5_000, () => 0);
    const readAt = cache.generation();
    cache.invalidateOrg("org_a"); // the key is revoked while its row is being read
    cache.setApiKey("digest-a", key("org_a"), readAt);
    cache.setPlan("org_a", "business", readAt);
    expect(cache.apiKey("digest-a")).toBeUndefined();
    expect(cache.plan("org_a")).toBeUndefined();
  });

  it("caches nothing with a TTL of 0", () => {
    const cache = new CredentialCache(0, () => 0);
    cache.setApiKey("digest-a", key("org_a"), cache.generation());
    expect(cache.apiKey("digest-a")).toBeUndefined();
  });
});
