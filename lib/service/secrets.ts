// Service-wide secrets kept in the database so every instance uses the same value; the first
// instance to need one creates it, the others read the winner's.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { serviceSecrets } from "@/lib/db/schema";

export async function getOrCreateSecret(db: Db, name: string): Promise<string> {
  await db.insert(serviceSecrets).values({ name, value: randomBytes(32).toString("base64url") }).onConflictDoNothing();
  const [row] = await db.select().from(serviceSecrets).where(eq(serviceSecrets.name, name)).limit(1);
  if (!row) throw new Error(`secret ${name} could not be created`);
  return row.value;
}
