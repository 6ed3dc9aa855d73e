"use server";
// The signed-in user's own account settings (any role: it is their own account, not the
// organisation's). The language is saved by the service and mirrored into the switcher's cookie, so
// the pages outside the dashboard (sign-in, home) speak it too, and "the browser's language" clears
// both; the caller then refreshes the session cookie that carries it (lib/session/refresh-session.ts).
import { cookies } from "next/headers";
import { setUserLocale } from "@/lib/api-client/operator";
import { dashboardAction } from "@/lib/dashboard/action-client";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";
import { DashboardUserSettingsSchema } from "@/lib/schemas/dashboard";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

// PATCH /api/admin/v1/dashboard/users/{id} — the user's dashboard language, or null for the browser's.
export const saveAccountLocale = dashboardAction({
  least: "viewer",
  schema: DashboardUserSettingsSchema,
  handler: async ({ locale }, access) => {
    const user = await setUserLocale(access.user.id, locale);
    if (!user) return { ok: false, code: "unauthenticated", error: "Your session has ended. Sign in again." };
    const jar = await cookies();
    // Not httpOnly: the switcher (components/ui/language-switcher.tsx) writes the same cookie from the browser.
    if (user.user.locale) jar.set(LOCALE_COOKIE, user.user.locale, { path: "/", maxAge: ONE_YEAR_SECONDS, sameSite: "lax" });
    else jar.delete(LOCALE_COOKIE);
    return { ok: true, data: { locale: user.user.locale } };
  },
});
