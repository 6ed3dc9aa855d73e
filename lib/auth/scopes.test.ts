import { describe, expect, it } from "vitest";
import { ROLES } from "@/lib/db/schema";
import { ALL_SCOPES, PARTNER_SCOPES, ROLE_SCOPES, parseScopeString } from "./scopes";

describe("ROLE_SCOPES", () => {
  it("gives each role exactly its scopes", () => {
    expect([...ROLE_SCOPES.viewer].sort()).toEqual(["missions:read", "orders:read", "submissions:read"]);
    expect([...ROLE_SCOPES.editor].sort()).toEqual(["missions:read", "missions:write", "orders:read", "orders:write", "submissions:read"]);
    expect([...ROLE_SCOPES.admin].sort()).toEqual(
      ["clients:manage", "missions:read", "missions:write", "orders:read", "orders:write", "submissions:read", "webhooks:manage"].sort(),
    );
  });

  it("covers every membership role of the database", () => {
    expect(Object.keys(ROLE_SCOPES).sort()).toEqual([...ROLES].sort());
  });

  it("keeps clients:manage for administrators and submissions:write for nobody", () => {
    expect(ROLE_SCOPES.viewer).not.toContain("clients:manage");
    expect(ROLE_SCOPES.editor).not.toContain("clients:manage");
    for (const scopes of Object.values(ROLE_SCOPES)) expect(scopes).not.toContain("submissions:write");
  });

  it("holds no duplicates and only known scopes", () => {
    for (const scopes of Object.values(ROLE_SCOPES)) {
      expect(new Set(scopes).size).toBe(scopes.length);
      for (const scope of scopes) expect(ALL_SCOPES).toContain(scope);
    }
  });
});

describe("PARTNER_SCOPES", () => {
  it("never includes credential management or zoomer intake", () => {
    expect(PARTNER_SCOPES).not.toContain("clients:manage");
    expect(PARTNER_SCOPES).not.toContain("submissions:write");
  });
});

describe("parseScopeString", () => {
  it("separates known and unknown names and drops duplicates", () => {
    expect(parseScopeString("missions:read  nope missions:read")).toEqual({ scopes: ["missions:read"], unknown: ["nope"] });
  });
});
