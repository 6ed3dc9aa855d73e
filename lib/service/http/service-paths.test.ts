import { describe, expect, it } from "vitest";
import { isServicePath } from "./service-paths";

describe("isServicePath", () => {
  it("takes the REST interfaces, the CDN, the operational endpoints and the OAuth well-known addresses", () => {
    for (const url of [
      "/api/v1/missions",
      "/api/v1/missions/mission_1?x=1",
      "/api/orders/v1/orders",
      "/api/admin/v1/orgs",
      "/cdn/images/img_1/original?exp=1&sig=2",
      "/api/health",
      "/api/ready",
      "/api/metrics",
      "/api/v1",
      "/.well-known/oauth-authorization-server",
      "/.well-known/jwks.json",
    ]) {
      expect(isServicePath(url), url).toBe(true);
    }
  });

  it("leaves pages, next-auth, the field app and static files to Next", () => {
    for (const url of [
      "/",
      "/missions",
      "/api/auth/session",
      "/api/auth/callback/credentials",
      "/field/api/missions",
      "/_next/static/x.js",
      "/api/v10/x",
      "/cdnx",
      "/api/healthz",
      "/docs",
      "/.well-known/security.txt",
      "/.well-known/jwks.jsonx",
    ]) {
      expect(isServicePath(url), url).toBe(false);
    }
  });
});
