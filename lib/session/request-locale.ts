// next-intl's request configuration (next.config.ts points its plugin here): no locale in the URL;
// the reader's locale comes from their account's setting (carried in the dashboard's session
// cookie, so it costs no service call), else the switcher's cookie, else Accept-Language
// (lib/i18n/locales.ts).
import { getServerSession } from "next-auth";
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { authOptions } from "@/lib/session/next-auth-options";
import { loadMessages } from "@/lib/i18n/catalogue";
import { LOCALE_COOKIE, resolveLocale } from "@/lib/i18n/locales";

export default getRequestConfig(async () => {
  const [cookieStore, headerList, session] = await Promise.all([cookies(), headers(), getServerSession(authOptions())]);
  const { locale, catalogue } = resolveLocale({
    account: session?.user.locale,
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerList.get("accept-language"),
  });
  return {
    locale,
    messages: await loadMessages(catalogue),
    // Pages pass the place's own zone wherever a time is about a place; UTC keeps the rest stable between server and browser.
    timeZone: "UTC",
  };
});
