// The peer baseline of api-get-mission: a minimal Fastify 5 server doing the work any service
// must do for an authenticated GET of a mission, written the plain way — verify the bearer JWT
// with `jose` against the same Ed25519 public key (the signing key row of the same database), read
// the mission row with the same driver (PGlite on a copy of the API's seeded data directory, or
// the API's own PostgreSQL database through pg), count the request against the organisation's
// rate limits as the spec requires (a minute and an hour, fixed windows in memory, written the
// plain way; X-RateLimit-* of the window that binds first on every authenticated answer, 429
// past a limit) and send the same JSON. No problem+json, request ids or metrics. Two variants (issue 36):
// - plain (default): verifies the token and reads the row on every request, no revocation check —
//   the figure a well-kept framework reaches with no design of its own;
// - --caches (the fair peer): what a good engineer would add, the same caches as the service —
//   verified tokens kept by the token's SHA-256 until they expire (as lib/service/keys/tokens.ts), the
//   client's revocation checked once per client (as the PGlite rate limiter), and on the embedded
//   database the mission row and its JSON kept in memory (as lib/service/missions/mission-cache.ts;
//   on PostgreSQL the service caches no rows, so neither does the peer).
// Started as a child process by scripts/bench/lib/targets.ts; not meant to be run by hand. GET /
// answers 200 (readiness).
import "@/lib/runtime/v8-tuning"; // the service's V8 settings: a baseline runs under the same runtime
import { createPublicKey, hash, type JsonWebKey, type KeyObject } from "node:crypto";
import { parseArgs } from "node:util";
import { and, asc, eq, isNull } from "drizzle-orm";
import Fastify from "fastify";
import { jwtVerify } from "jose";
import { openDatabase } from "@/lib/db/client";
import { apiClients, missions, signingKeys } from "@/lib/db/schema";
import { serializeMission } from "@/lib/service/missions/serialize-mission";
import { settleMessageShapes } from "@/lib/http/message-shapes";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "data-dir": { type: "string" },
    "database-url-from-env": { type: "boolean", default: false }, // BENCH_DATABASE_URL
    issuer: { type: "string" },
    audience: { type: "string" },
    "content-type": { type: "string" },
    "per-minute": { type: "string" },
    "per-hour": { type: "string" },
    caches: { type: "boolean", default: false },
  },
});
const { port, issuer, audience } = values;
const dataDir = values["data-dir"];
const databaseUrl = values["database-url-from-env"] ? process.env.BENCH_DATABASE_URL : undefined;
const contentType = values["content-type"];
const perMinute = Number(values["per-minute"]);
const perHour = Number(values["per-hour"]);
if (!port || !(dataDir || databaseUrl) || !issuer || !audience || !contentType || !(perMinute > 0) || !(perHour > 0)) {
  throw new Error(
    "usage: fastify-peer-server.ts --port <n> (--data-dir <dir> | --database-url-from-env, BENCH_DATABASE_URL set) --issuer <iss> --audience <aud> --content-type <type> --per-minute <n> --per-hour <n>",
  );
}

const database = databaseUrl ? await openDatabase({ kind: "postgres", url: databaseUrl }) : await openDatabase({ kind: "pglite", dataDir: dataDir ?? null });
const { db } = database;

// The API signs with its oldest active key; a fresh database has exactly one.
const [key] = await db
  .select({ kid: signingKeys.kid, publicJwk: signingKeys.publicJwk })
  .from(signingKeys)
  .where(isNull(signingKeys.retiredAt))
  .orderBy(asc(signingKeys.createdAt))
  .limit(1);
if (!key) throw new Error("no signing key in the database");
const publicKey: KeyObject = createPublicKey({ key: key.publicJwk as JsonWebKey, format: "jwk" });

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;
const app = Fastify({ logger: false });
const caches = values.caches === true;
const rowCaching = caches && !databaseUrl;

interface Verified {
  org: string;
  scopes: ReadonlySet<string>;
  clientId: string;
  exp: number;
}
const verifiedTokens = new Map<string, Verified>();
const activeClients = new Map<string, Promise<boolean>>();
const missionJson = new Map<string, { orgId: string; body: Buffer }>();

async function verifyToken(token: string): Promise<Verified | null> {
  const digest = caches ? hash("sha256", token, "base64url") : "";
  const cached = caches ? verifiedTokens.get(digest) : undefined;
  if (cached && cached.exp * 1000 > Date.now()) return cached;
  try {
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: ["EdDSA"],
      issuer,
      audience,
      typ: "at+jwt",
      requiredClaims: ["exp", "iat", "jti", "sub"],
    });
    const { org, scope, client_id: clientId, exp } = payload;
    if (typeof org !== "string" || typeof scope !== "string" || typeof clientId !== "string" || typeof exp !== "number") return null;
    const verified = { org, scopes: new Set(scope.split(" ")), clientId, exp };
    if (caches) verifiedTokens.set(digest, verified);
    return verified;
  } catch {
    return null;
  }
}

function clientActive(clientId: string): Promise<boolean> {
  let known = activeClients.get(clientId);
  if (!known) {
    known = db
      .select({ id: apiClients.id })
      .from(apiClients)
      .where(and(eq(apiClients.id, clientId), isNull(apiClients.revokedAt)))
      .limit(1)
      .then((rows) => rows.length > 0);
    activeClients.set(clientId, known);
  }
  return known;
}

/** One organisation's count in one fixed window. */
interface WindowCount {
  seconds: number;
  limit: number;
  start: number;
  count: number;
}
const rateWindows = [
  { seconds: 60, limit: perMinute },
  { seconds: 3600, limit: perHour },
];
const windowCounts = new Map<string, WindowCount[]>();

/** Counts a request against the organisation's windows: the X-RateLimit-* headers of the window that binds first, and whether it is allowed. */
function countRequest(org: string): { allowed: boolean; headers: Record<string, string>; retryAfter: number } {
  const now = Math.floor(Date.now() / 1000);
  let counts = windowCounts.get(org);
  if (!counts) windowCounts.set(org, (counts = rateWindows.map((w) => ({ ...w, start: -1, count: 0 }))));
  let binding: { limit: number; remaining: number; reset: number } | undefined;
  let exceeded: { limit: number; remaining: number; reset: number } | undefined;
  for (const c of counts) {
    const start = now - (now % c.seconds);
    if (c.start !== start) Object.assign(c, { start, count: 0 });
    c.count += 1;
    const state = { limit: c.limit, remaining: Math.max(0, c.limit - c.count), reset: start + c.seconds };
    if (c.count > c.limit && (!exceeded || state.reset > exceeded.reset)) exceeded = state;
    if (!binding || state.remaining < binding.remaining) binding = state;
  }
  const window = exceeded ?? binding ?? { limit: 0, remaining: 0, reset: now };
  return {
    allowed: !exceeded,
    headers: { "x-ratelimit-limit": String(window.limit), "x-ratelimit-remaining": String(window.remaining), "x-ratelimit-reset": String(window.reset) },
    retryAfter: Math.max(1, window.reset - now),
  };
}

app.get("/", async () => ({ ok: true }));

app.get<{ Params: { id: string } }>("/api/v1/missions/:id", async (request, reply) => {
  const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
  if (!token) return reply.code(401).send({ error: "unauthorized" });
  const verified = await verifyToken(token);
  if (!verified) return reply.code(401).send({ error: "invalid_token" });
  if (caches && !(await clientActive(verified.clientId))) return reply.code(401).send({ error: "invalid_token" });
  const usage = countRequest(verified.org);
  void reply.headers(usage.headers);
  if (!usage.allowed) return reply.code(429).header("retry-after", String(usage.retryAfter)).send({ error: "rate_limited" });
  if (!verified.scopes.has("missions:read")) return reply.code(403).send({ error: "insufficient_scope" });
  const { id } = request.params;
  const cached = rowCaching ? missionJson.get(id) : undefined;
  // A Buffer, so Fastify sends the content type as given (to a string it adds "; charset=utf-8").
  if (cached) return cached.orgId === verified.org ? reply.header("content-type", contentType).send(cached.body) : reply.code(404).send({ error: "not_found" });
  const [row] = await db
    .select()
    .from(missions)
    .where(and(eq(missions.id, id), eq(missions.orgId, verified.org)))
    .limit(1);
  if (!row) return reply.code(404).send({ error: "not_found" });
  const body = Buffer.from(JSON.stringify(serializeMission(row)));
  if (rowCaching) missionJson.set(id, { orgId: row.orgId, body });
  return reply.header("content-type", contentType).send(body);
});

await app.listen({ port: Number(port), host: "0.0.0.0" });
// The service's settling requests (lib/http/message-shapes.ts): a baseline runs under the same runtime.
await settleMessageShapes(app.server, { path: "/" });

process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
