import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import type { AccountLocale, DashboardUser } from "@/lib/schemas/dashboard";
import { getDashboardUser } from "./get-dashboard-user";

export interface SetUserLocaleOptions {
  db: Db;
  userId: string;
  /** A catalogue of lib/i18n/locales.ts (checked by AccountLocaleSchema at the boundary), or null for the browser's languages. */
  locale: AccountLocale;
}

/** Saves the language a dashboard user chose (or clears it); the user as they now are, or null when there is no such user. */
export async function setUserLocale({ db, userId, locale }: SetUserLocaleOptions): Promise<DashboardUser | null> {
  const updated = await db.update(users).set({ locale }).where(eq(users.id, userId)).returning({ id: users.id });
  if (updated.length === 0) return null;
  return getDashboardUser({ db, userId });
}
