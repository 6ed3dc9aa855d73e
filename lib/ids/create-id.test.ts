import { describe, expect, it } from "vitest";
import { createId, createSecret, hasPrefix } from "./create-id";

describe("createId", () => {
  it("prefixes the id with its kind and uses 26 base32 characters", () => {
    const id = createId("mission");
    expect(id).toMatch(/^mission_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(hasPrefix(id, "mission")).toBe(true);
    expect(hasPrefix(id, "submission")).toBe(false);
  });

  it("sorts by creation time", () => {
    const earlier = createId("submission", 1_700_000_000_000);
    const later = createId("submission", 1_700_000_000_001);
    expect(earlier < later).toBe(true);
  });

  it("does not repeat, across refills of its random pool (409 ids a refill)", () => {
    const ids = Array.from({ length: 2000 }, () => createId("image", 0));
    expect(new Set(ids).size).toBe(2000);
    // The random part alone (the 16 characters after the time's 10), so no two draws share bytes.
    expect(new Set(ids.map((id) => id.slice(-16))).size).toBe(2000);
  });
});

describe("createSecret", () => {
  it("carries 256 bits of randomness after its prefix", () => {
    const secret = createSecret("cs");
    expect(secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(createSecret("cs")).not.toBe(secret);
  });
});
