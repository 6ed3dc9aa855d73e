// The trust anchor of the service's C2PA copies: its own root certificate, public (PEM). A reader
// given it as a trust anchor reports a copy as Trusted, not only Valid.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { ApiError } from "@/lib/service/errors";
import { TRUST_ANCHOR_PATH, trustAnchorPem } from "@/lib/service/provenance/provenance-credentials";
import { publicErrorResponses } from "../openapi-common";
import type { AppEnv } from "../types";

const trustAnchorRoute = createRoute({
  method: "get",
  path: TRUST_ANCHOR_PATH,
  operationId: "getProvenanceTrustAnchor",
  tags: ["Authentication"],
  summary: "The root certificate of the service's C2PA copies (PEM)",
  description:
    "Public. The self-signed Ed25519 root that issues the service's claim-signing certificates (c2pa-kp-claimSigning, at most 366 days). " +
    "Give it to a C2PA reader as a trust anchor to check a delivered photo's C2PA copy (`provenance.c2pa_url`) as Trusted.",
  responses: {
    200: {
      description: "The certificate.",
      content: { "application/x-pem-file": { schema: z.string().openapi({ example: "-----BEGIN CERTIFICATE-----\n…" }) } },
    },
    ...publicErrorResponses(404),
  },
});

export function registerProvenanceRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /auth/c2pa-root.pem – the C2PA root certificate
  app.openapi(trustAnchorRoute, async (c) => {
    const pem = await trustAnchorPem(c.var.ctx.db);
    if (!pem) throw new ApiError(404, "not_found", "No provenance root yet.");
    return c.body(pem, 200, { "Content-Type": "application/x-pem-file", "Cache-Control": "public, max-age=3600" });
  });
}
