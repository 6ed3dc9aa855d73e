// The peer baseline of api-get-mission: a minimal Fastify 5 server doing the work any service
// must do for an authenticated GET of a mission, written the plain way — verify the bearer JWT
// with `jose` against the same Ed25519 public key (the signing key row of the same database), read
// the mission row with the same driver (PGlite on a copy of the API's seeded data directory, or
// the API's own PostgreSQL database through pg) and send the same JSON. No token cache, no rate limit, no revocation check, no problem+json: the
// figure a well-kept framework reaches with no design of its own. Started as a child process by
// scripts/bench/lib/targets.ts; not meant to be run by hand. GET / answers 200 (readiness).
import { createPublicKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { parseArgs } from "node:util";
import { and, asc, eq, isNull } from "drizzle-orm";
import Fastify from "fastify";
import { jwtVerify } from "jose";
import { openDatabase } from "@/lib/db/client";
import { missions, signingKeys } from "@/lib/db/schema";
import { serializeMission } from "@/lib/service/missions/serialize-mission";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "data-dir": { type: "string" },
    "database-url-from-env": { type: "boolean", default: false }, // BENCH_DATABASE_URL
    issuer: { type: "string" },
    audience: { type: "string" },
    "content-type": { type: "string" },
  },
});
const { port, issuer, audience } = values;
const dataDir = values["data-dir"];
const databaseUrl = values["database-url-from-env"] ? process.env.BENCH_DATABASE_URL : undefined;
const contentType = values["content-type"];
if (!port || !(dataDir || databaseUrl) || !issuer || !audience || !contentType) {
  throw new Error(
    "usage: fastify-peer-server.ts --port <n> (--data-dir <dir> | --database-url-from-env, BENCH_DATABASE_URL set) --issuer <iss> --audience <aud> --content-type <type>",
  );
}

const database = databaseUrl ? await openDatabase({ kind: "postgres", url: databaseUrl }) : await openDatabase({ kind: "pglite", dataDir: dataDir ?? null });
const { db } = database;

// The API signs with its oldest active key; a fresh database has exactly one.
const [key] = await db.select({ kid: signingKeys.kid, publicJwk: signingKeys.publicJwk }).from(signingKeys).where(isNull(signingKeys.retiredAt)).orderBy(asc(signingKeys.createdAt)).limit(1);
if (!key) throw new Error("no signing key in the database");
const publicKey: KeyObject = createPublicKey({ key: key.publicJwk as JsonWebKey, format: "jwk" });

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;
const app = Fastify({ logger: false });

app.get("/", async () => ({ ok: true }));

app.get<{ Params: { id: string } }>("/api/v1/missions/:id", async (request, reply) => {
  const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
  if (!token) return reply.code(401).send({ error: "unauthorized" });
  let org: unknown;
  let scope: unknown;
  try {
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ["EdDSA"], issuer, audience, typ: "at+jwt", requiredClaims: ["exp", "iat", "jti", "sub"] });
    ({ org, scope } = payload);
  } catch {
    return reply.code(401).send({ error: "invalid_token" });
  }
  if (typeof org !== "string" || typeof scope !== "string" || !scope.split(" ").includes("missions:read")) {
    return reply.code(403).send({ error: "insufficient_scope" });
  }
  const [row] = await db
    .select()
    .from(missions)
    .where(and(eq(missions.id, request.params.id), eq(missions.orgId, org)))
    .limit(1);
  if (!row) return reply.code(404).send({ error: "not_found" });
  // A Buffer, so Fastify sends the content type as given (to a string it adds "; charset=utf-8").
  return reply.header("content-type", contentType).send(Buffer.from(JSON.stringify(serializeMission(row))));
});

await app.listen({ port: Number(port), host: "0.0.0.0" });

process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
