import { sql } from "drizzle-orm";
import { hashPassword } from "@/lib/auth/password";
import type { Db } from "@/lib/db/client";
import { memberships, users, type Role } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";

export interface CreateUserOptions {
  db: Db;
  orgId: string;
  email: string;
  password: string;
  role: Role;
  name?: string;
}

/**
 * Adds a dashboard user to an organisation. An existing user (same email, case-insensitive) gets
 * a membership in this organisation too — that is how an account manager spans several — and
 * keeps their password.
 */
export async function createUser({ db, orgId, email, password, role, name }: CreateUserOptions) {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1);
    const user =
      existing ??
      (
        await tx
          .insert(users)
          .values({ id: createId("user"), email, name: name ?? null, passwordHash })
          .returning()
      )[0];
    if (!user) throw new Error("insert returned no row");
    await tx
      .insert(memberships)
      .values({ userId: user.id, orgId, role })
      .onConflictDoUpdate({ target: [memberships.userId, memberships.orgId], set: { role } });
    return { id: user.id, email: user.email, org_id: orgId, role, created: !existing };
  });
}
