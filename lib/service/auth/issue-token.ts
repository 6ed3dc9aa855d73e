// The OAuth 2.0 client-credentials grant (RFC 6749 §4.4): authenticates the client (HTTP Basic or
// body parameters, never both), checks the requested scopes and signs an access token.
import { eq } from "drizzle-orm";
import { isScope, parseScopeString, type Scope } from "@/lib/auth/scopes";
import { secretMatches } from "@/lib/auth/secrets";
import { apiClients, zoomers } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";

export type OAuthErrorCode = "invalid_request" | "invalid_client" | "invalid_grant" | "invalid_scope" | "unsupported_grant_type" | "unauthorized_client";

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: OAuthErrorCode,
    description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export interface TokenRequest {
  grantType?: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** True when the client authenticated with an Authorization: Basic header. */
  usedBasic: boolean;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

const DASHBOARD_ONLY_SCOPES: ReadonlySet<string> = new Set<Scope>(["clients:manage"]);

const BASIC_CHALLENGE = { "WWW-Authenticate": 'Basic realm="photo-missions", charset="UTF-8"' };

export async function issueToken(ctx: ServiceContext, request: TokenRequest): Promise<TokenResponse> {
  if (!request.grantType) throw new OAuthError(400, "invalid_request", "grant_type is required.");
  if (request.grantType !== "client_credentials") {
    throw new OAuthError(400, "unsupported_grant_type", "Only the client_credentials grant is supported.");
  }
  if (!request.clientId || !request.clientSecret) {
    // RFC 6749 §5.2: "no client authentication included" is invalid_client.
    throw new OAuthError(
      401,
      "invalid_client",
      "Client authentication is required: client_id and client_secret, in the body or by HTTP Basic.",
      request.usedBasic ? BASIC_CHALLENGE : {},
    );
  }

  // A zoomer's client brings the zoomer's name along (one query): the field page says whose photos
  // wait on a shared phone by name, not by id (lib/field-server/session-claims.ts).
  const [row] = await ctx.db
    .select({ client: apiClients, zoomerName: zoomers.name })
    .from(apiClients)
    .leftJoin(zoomers, eq(zoomers.id, apiClients.zoomerId))
    .where(eq(apiClients.id, request.clientId))
    .limit(1);
  const client = row?.client;
  // One answer for unknown, revoked and wrong-secret clients, so ids cannot be probed. Dashboard
  // clients get tokens from the operator interface only (their stored secret is unusable anyway).
  if (!client || client.revokedAt || client.kind === "dashboard" || !secretMatches(request.clientSecret, client.secretHash)) {
    throw new OAuthError(401, "invalid_client", "Client authentication failed.", request.usedBasic ? BASIC_CHALLENGE : {});
  }

  // clients:manage belongs to dashboard administrators: never granted here, whatever a row says.
  const allowed = new Set(client.scopes.filter((s) => !DASHBOARD_ONLY_SCOPES.has(s)));
  let granted: Scope[];
  if (request.scope === undefined || request.scope.trim() === "") {
    granted = [...allowed].filter(isScope);
  } else {
    const { scopes, unknown } = parseScopeString(request.scope);
    if (unknown.length > 0) throw new OAuthError(400, "invalid_scope", `Unknown scope: ${unknown.join(" ")}.`);
    const beyond = scopes.filter((s) => !allowed.has(s));
    if (beyond.length > 0) {
      throw new OAuthError(400, "invalid_scope", `This client may not be granted: ${beyond.join(" ")}.`);
    }
    granted = scopes;
  }

  const scope = granted.join(" ");
  const { token, expiresIn } = await ctx.keys.sign({
    sub: client.id,
    client_id: client.id,
    scope,
    ...(client.orgId ? { org: client.orgId } : {}),
    ...(client.zoomerId ? { zoomer: client.zoomerId } : {}),
    ...(client.zoomerId && row?.zoomerName ? { zoomer_name: nameClaim(row.zoomerName) } : {}),
  });
  return { access_token: token, token_type: "Bearer", expires_in: expiresIn, scope };
}

/** Longest `zoomer_name` claim, in characters as people see them: the token travels in a cookie. */
export const ZOOMER_NAME_CLAIM_MAX = 40;

/** A name for the `zoomer_name` claim: whole graphemes only, cut with an ellipsis past the limit. */
export function nameClaim(name: string): string {
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(name.trim())].map((s) => s.segment);
  return graphemes.length <= ZOOMER_NAME_CLAIM_MAX
    ? graphemes.join("")
    : `${graphemes
        .slice(0, ZOOMER_NAME_CLAIM_MAX - 1)
        .join("")
        .trimEnd()}…`;
}
