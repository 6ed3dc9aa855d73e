import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { memberships, organisations, users } from "@/lib/db/schema";
import { isAppLocale } from "@/lib/i18n/locales";
import type { DashboardUser } from "@/lib/schemas/dashboard";

export type DashboardUserKey = { userId: string } | { email: string };

// Sorted here rather than by the database, whose collation differs between PGlite and servers.
const byName = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/**
 * A dashboard user with their memberships (sorted by organisation name), by id or by email
 * (case-insensitive); null when there is no such user.
 */
export async function getDashboardUser({ db, ...key }: { db: Db } & DashboardUserKey): Promise<DashboardUser | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, locale: users.locale })
    .from(users)
    .where("userId" in key ? eq(users.id, key.userId) : sql`lower(${users.email}) = lower(${key.email})`)
    .limit(1);
  if (!row) return null;
  // A language whose catalogue has since gone reads as no choice (the browser's), not as an error.
  const user = { ...row, locale: row.locale && isAppLocale(row.locale) ? row.locale : null };
  const rows = await db
    .select({ org_id: memberships.orgId, org_name: organisations.name, role: memberships.role })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(eq(memberships.userId, user.id));
  rows.sort((a, b) => byName.compare(a.org_name, b.org_name) || (a.org_id < b.org_id ? -1 : a.org_id > b.org_id ? 1 : 0));
  return { user, memberships: rows };
}
