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

  it("does not repeat", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createId("image", 0)));
    expect(ids.size).toBe(1000);
  });
});

describe("createSecret", () => {
  it("carries 256 bits of randomness after its prefix", () => {
    const secret = createSecret("cs");
    expect(secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(createSecret("cs")).not.toBe(secret);
  });
});
