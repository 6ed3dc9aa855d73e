// Service-wide secrets kept in the database so every instance uses the same value; the first
// instance to need one creates it, the others read the winner's. Stored sealed (lib/auth/secret-box).
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { SecretBox } from "@/lib/auth/secret-box";
import type { Db } from "@/lib/db/client";
import { organisations, provenanceCertificates, serviceSecrets, signingKeys, webhookEndpoints } from "@/lib/db/schema";

export async function getOrCreateSecret(db: Db, box: SecretBox, name: string): Promise<string> {
  await db
    .insert(serviceSecrets)
    .values({ name, value: box.seal(randomBytes(32).toString("base64url")) })
    .onConflictDoNothing();
  const [row] = await db.select().from(serviceSecrets).where(eq(serviceSecrets.name, name)).limit(1);
  if (!row) throw new Error(`secret ${name} could not be created`);
  return box.open(row.value);
}

/**
 * Rewrites every stored secret that is plaintext (written before sealing existed) or sealed with a
 * key other than the current one (after a rotation), so old keys can be retired. Runs at start;
 * each row is rewritten only if it still holds the value read, so instances starting together
 * cannot undo each other. Returns how many values were resealed.
 */
export async function resealStoredSecrets(db: Db, box: SecretBox): Promise<number> {
  let count = 0;

  for (const row of await db.select({ name: serviceSecrets.name, value: serviceSecrets.value }).from(serviceSecrets)) {
    if (!box.needsReseal(row.value)) continue;
    await db
      .update(serviceSecrets)
      .set({ value: box.seal(box.open(row.value)) })
      .where(sql`${serviceSecrets.name} = ${row.name} and ${serviceSecrets.value} = ${row.value}`);
    count += 1;
  }

  const endpoints = await db
    .select({ id: webhookEndpoints.id, secret: webhookEndpoints.secret, previousSecret: webhookEndpoints.previousSecret })
    .from(webhookEndpoints);
  for (const row of endpoints) {
    const secretStale = box.needsReseal(row.secret);
    const previousStale = row.previousSecret !== null && box.needsReseal(row.previousSecret);
    if (!secretStale && !previousStale) continue;
    await db
      .update(webhookEndpoints)
      .set({
        secret: secretStale ? box.seal(box.open(row.secret)) : row.secret,
        previousSecret: row.previousSecret !== null && previousStale ? box.seal(box.open(row.previousSecret)) : row.previousSecret,
      })
      .where(sql`${webhookEndpoints.id} = ${row.id} and ${webhookEndpoints.secret} = ${row.secret}`);
    count += (secretStale ? 1 : 0) + (previousStale ? 1 : 0);
  }

  const orgs = await db
    .select({ id: organisations.id, secret: organisations.orderDeliverySecret, previous: organisations.previousOrderDeliverySecret })
    .from(organisations)
    .where(sql`${organisations.orderDeliverySecret} is not null or ${organisations.previousOrderDeliverySecret} is not null`);
  for (const row of orgs) {
    const secretStale = row.secret !== null && box.needsReseal(row.secret);
    const previousStale = row.previous !== null && box.needsReseal(row.previous);
    if (!secretStale && !previousStale) continue;
    await db
      .update(organisations)
      .set({
        orderDeliverySecret: row.secret !== null && secretStale ? box.seal(box.open(row.secret)) : row.secret,
        previousOrderDeliverySecret: row.previous !== null && previousStale ? box.seal(box.open(row.previous)) : row.previous,
      })
      .where(eq(organisations.id, row.id));
    count += (secretStale ? 1 : 0) + (previousStale ? 1 : 0);
  }

  for (const row of await db.select({ kid: signingKeys.kid, privateJwk: signingKeys.privateJwk }).from(signingKeys)) {
    // A key stored before sealing is a JSON object; a sealed one is a JSON string.
    const stored = row.privateJwk;
    const plaintext = typeof stored === "string" ? box.open(stored) : JSON.stringify(stored);
    if (typeof stored === "string" && !box.needsReseal(stored)) continue;
    await db
      .update(signingKeys)
      .set({ privateJwk: box.seal(plaintext) })
      .where(eq(signingKeys.kid, row.kid));
    count += 1;
  }

  // The C2PA root and claim-signing keys (always stored sealed).
  for (const row of await db.select({ id: provenanceCertificates.id, privateKey: provenanceCertificates.privateKey }).from(provenanceCertificates)) {
    if (!box.needsReseal(row.privateKey)) continue;
    await db
      .update(provenanceCertificates)
      .set({ privateKey: box.seal(box.open(row.privateKey)) })
      .where(eq(provenanceCertificates.id, row.id));
    count += 1;
  }
  return count;
}
