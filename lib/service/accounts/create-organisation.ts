import type { Db } from "@/lib/db/client";
import { organisations, type Plan } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";

export async function createOrganisation({ db, name, plan = "developer" }: { db: Db; name: string; plan?: Plan }) {
  const [row] = await db
    .insert(organisations)
    .values({ id: createId("org"), name, plan })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return { id: row.id, name: row.name, plan: row.plan, created_at: row.createdAt.toISOString() };
}
