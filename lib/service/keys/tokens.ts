// Access tokens: RFC 9068-style JWTs (typ "at+jwt") signed with Ed25519 keys kept in the
// database, so every instance signs and verifies with the same keys and publishes one JWKS. The
// private keys are stored sealed (lib/auth/secret-box.ts): the database alone cannot mint tokens.
//
// Rotation (`npm run admin -- keys rotate`): a new key signs from then on; the keys it replaces are
// retired — never used to sign again — but stay PUBLISHED in the JWKS and keep verifying. The same
// keys sign each delivered photo's evidence (lib/service/orders/photo-evidence.ts), stored as made
// at delivery, and that evidence may be checked for as long as the photo is kept: a partner
// organisation's photos have no retention limit (only demo data expires, DEMO_RETENTION_HOURS), so
// a retired key is published for as long as the service runs. Dropping one would turn every
// evidence it signed into an unverifiable one. (A key known to be compromised is another matter: it
// would be withdrawn and its evidence re-issued — not built.)
import { createPrivateKey, createPublicKey, generateKeyPairSync, hash, randomUUID, type KeyObject } from "node:crypto";
import { asc, desc, isNull } from "drizzle-orm";
import { SignJWT, jwtVerify, errors as joseErrors, type JWK, type JWTPayload } from "jose";
import type { Db } from "@/lib/db/client";
import { signingKeys } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { SecretBox } from "@/lib/auth/secret-box";

export const TOKEN_ALG = "EdDSA";
export const TOKEN_TYP = "at+jwt";

export interface TokenSettings {
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

/** Marks a token issued to the dashboard (lib/service/dashboard), which has its own rate limits. */
export const DASHBOARD_TOKEN_KIND = "dashboard";

export interface AccessTokenClaims {
  sub: string;
  client_id: string;
  scope: string;
  org?: string;
  zoomer?: string;
  /** The zoomer's name (cut to 40 characters), for the field page to show; never used to authorise. */
  zoomer_name?: string;
  /** Only ever "dashboard", and only on tokens the operator interface issues; absent otherwise. */
  kind?: typeof DASHBOARD_TOKEN_KIND;
}

export interface VerifiedToken extends AccessTokenClaims {
  jti: string;
  exp: number;
  iat: number;
  scopes: Set<string>;
}

export class TokenError extends Error {}

interface LoadedKey {
  kid: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
  publicJwk: JWK;
  createdAt: Date;
  retiredAt: Date | null;
}

/**
 * How long an instance may go on signing access tokens with a key another instance has just
 * retired: short-lived tokens, still verifying against the published key, so a lookup per token is
 * not worth it. Evidence checks the database before every signature instead.
 */
export const TOKEN_KEY_REFRESH_MS = 30_000;

export class KeyStore {
  private keys = new Map<string, LoadedKey>();
  private current: LoadedKey | undefined;
  private lastRefresh = 0;
  // Verified tokens, so a client's repeated requests pay for the signature check once. Keyed by the
  // token's SHA-256 (a heap dump holds no usable bearer token); only tokens that verified are kept,
  // each until its own `exp`. Revocation is checked per request elsewhere, in memory (the rate
  // limiter's record of revoked clients, kept current across instances), so caching never
  // outlives a revoked client.
  private readonly verified = new Map<string, VerifiedToken>();
  private static readonly VERIFIED_CACHE_SIZE = 10_000;

  constructor(
    private readonly db: Db,
    readonly settings: TokenSettings,
    private readonly box: SecretBox,
  ) {}

  /** Loads the keys, creating the first one on a fresh database. */
  async init(): Promise<void> {
    await this.refresh();
    if (!this.current) {
      await this.db.insert(signingKeys).values(this.newKeyRow());
      await this.refresh();
    }
  }

  private newKeyRow(): typeof signingKeys.$inferInsert {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    return {
      kid: createId("signingKey"),
      alg: TOKEN_ALG,
      publicJwk: publicKey.export({ format: "jwk" }),
      privateJwk: this.box.seal(JSON.stringify(privateKey.export({ format: "jwk" }))),
    };
  }

  /**
   * A new signing key; every key active until now is retired in the same transaction (published
   * and verifying, never signing again). Other instances pick the new key up before their next
   * evidence signature and within TOKEN_KEY_REFRESH_MS for access tokens.
   */
  async rotate(now = new Date()): Promise<{ kid: string; retired: string[] }> {
    const row = this.newKeyRow();
    const retired = await this.db.transaction(async (tx) => {
      const previous = await tx.update(signingKeys).set({ retiredAt: now }).where(isNull(signingKeys.retiredAt)).returning({ kid: signingKeys.kid });
      await tx.insert(signingKeys).values(row);
      return previous.map((p) => p.kid);
    });
    await this.refresh();
    return { kid: row.kid, retired };
  }

  /** The published keys, the signing one first, with when each was made and retired. */
  describeKeys(): { kid: string; alg: string; created_at: string; retired_at: string | null; signing: boolean }[] {
    return [...this.keys.values()]
      .map((k) => ({
        kid: k.kid,
        alg: TOKEN_ALG,
        created_at: k.createdAt.toISOString(),
        retired_at: k.retiredAt?.toISOString() ?? null,
        signing: k === this.current,
      }))
      .sort((a, b) => Number(b.signing) - Number(a.signing) || b.created_at.localeCompare(a.created_at));
  }

  private async refresh(): Promise<void> {
    // Retired keys too: they are published and verify what they signed, they only never sign.
    const rows = await this.db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt));
    const keys = new Map<string, LoadedKey>();
    for (const row of rows) {
      // Sealed: a JSON string; stored before sealing existed: the JWK object itself.
      const privateJwk = (typeof row.privateJwk === "string" ? JSON.parse(this.box.open(row.privateJwk)) : row.privateJwk) as JWK;
      const publicJwk = row.publicJwk as JWK;
      keys.set(row.kid, {
        kid: row.kid,
        privateKey: createPrivateKey({ key: privateJwk as import("node:crypto").JsonWebKey, format: "jwk" }),
        publicKey: createPublicKey({ key: publicJwk as import("node:crypto").JsonWebKey, format: "jwk" }),
        publicJwk: { ...publicJwk, kid: row.kid, alg: TOKEN_ALG, use: "sig" },
        createdAt: row.createdAt,
        retiredAt: row.retiredAt,
      });
    }
    this.keys = keys;
    // The oldest active key signs, so instances agree even if two created a key at once.
    this.current = [...keys.values()].filter((k) => k.retiredAt === null).at(-1);
    this.lastRefresh = Date.now();
  }

  /** Before signing: the keys as another instance's rotation may have left them. */
  private async signingKey({ strict }: { strict: boolean }): Promise<LoadedKey> {
    if (strict) {
      // Evidence is kept for good: it is never signed with a key retired a moment ago elsewhere.
      const [active] = await this.db
        .select({ kid: signingKeys.kid })
        .from(signingKeys)
        .where(isNull(signingKeys.retiredAt))
        .orderBy(asc(signingKeys.createdAt))
        .limit(1);
      if (active && active.kid !== this.current?.kid) await this.refresh();
    } else if (Date.now() - this.lastRefresh > TOKEN_KEY_REFRESH_MS) {
      await this.refresh();
    }
    const key = this.current;
    if (!key) throw new Error("KeyStore.init() was not called");
    return key;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }

  /** Signs an access token; `ttlSeconds` shortens (or lengthens) the configured lifetime for this one. */
  async sign(
    claims: AccessTokenClaims,
    { now = Math.floor(Date.now() / 1000), ttlSeconds = this.settings.ttlSeconds }: { now?: number; ttlSeconds?: number } = {},
  ): Promise<{ token: string; expiresIn: number }> {
    const key = await this.signingKey({ strict: false });
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: TOKEN_ALG, typ: TOKEN_TYP, kid: key.kid })
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomUUID())
      .sign(key.privateKey);
    return { token, expiresIn: ttlSeconds };
  }

  /**
   * Signs a record with the current token key as a compact JWS (a JWT of `typ`), `kid` from the
   * JWKS. The caller keeps the JWS: after a rotation the same record would be signed differently.
   */
  async signRecord(record: JWTPayload, { typ, issuedAt }: { typ: string; issuedAt: number }): Promise<string> {
    const key = await this.signingKey({ strict: true });
    return new SignJWT(record)
      .setProtectedHeader({ alg: TOKEN_ALG, typ, kid: key.kid })
      .setIssuer(this.settings.issuer)
      .setIssuedAt(issuedAt)
      .sign(key.privateKey);
  }

  private async keyFor(kid: string | undefined): Promise<KeyObject> {
    if (!kid) throw new TokenError("token has no key id");
    let key = this.keys.get(kid);
    // A key created by another instance since our last look: refresh, at most once a second.
    if (!key && Date.now() - this.lastRefresh > 1000) {
      await this.refresh();
      key = this.keys.get(kid);
    }
    if (!key) throw new TokenError("token signed with an unknown key");
    return key.publicKey;
  }

  async verify(token: string): Promise<VerifiedToken> {
    // One-shot hash: no Hash object per request (the cache key is computed on every request).
    const digest = hash("sha256", token, "base64url");
    const cached = this.verified.get(digest);
    if (cached) {
      if (cached.exp * 1000 > Date.now()) return cached;
      this.verified.delete(digest);
    }
    const result = await this.verifySignature(token);
    if (this.verified.size >= KeyStore.VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value ?? "");
    this.verified.set(digest, result);
    return result;
  }

  private async verifySignature(token: string): Promise<VerifiedToken> {
    try {
      const { payload } = await jwtVerify(token, (header) => this.keyFor(header.kid), {
        algorithms: [TOKEN_ALG],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        typ: TOKEN_TYP,
        requiredClaims: ["exp", "iat", "jti", "sub"],
      });
      return toVerified(payload);
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new TokenError("token expired");
      if (error instanceof joseErrors.JWTClaimValidationFailed) throw new TokenError(`token ${error.claim} is not accepted`);
      if (error instanceof joseErrors.JOSEError) throw new TokenError("token is malformed or its signature is invalid");
      throw error;
    }
  }
}

function toVerified(payload: JWTPayload): VerifiedToken {
  const { sub, jti, exp, iat } = payload;
  const clientId = payload.client_id;
  const scope = payload.scope;
  if (
    typeof sub !== "string" ||
    typeof jti !== "string" ||
    typeof exp !== "number" ||
    typeof iat !== "number" ||
    typeof clientId !== "string" ||
    typeof scope !== "string"
  ) {
    throw new TokenError("token claims are incomplete");
  }
  const org = typeof payload.org === "string" ? payload.org : undefined;
  const zoomer = typeof payload.zoomer === "string" ? payload.zoomer : undefined;
  // We never sign another kind, so any other value is refused rather than ignored.
  if (payload.kind !== undefined && payload.kind !== DASHBOARD_TOKEN_KIND) throw new TokenError("token kind is not accepted");
  const kind = payload.kind === DASHBOARD_TOKEN_KIND ? DASHBOARD_TOKEN_KIND : undefined;
  return {
    sub,
    jti,
    exp,
    iat,
    client_id: clientId,
    scope,
    org,
    zoomer,
    ...(kind ? { kind } : {}),
    scopes: new Set(scope.split(" ").filter(Boolean)),
  };
}
