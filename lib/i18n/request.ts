// next-intl's request configuration (next.config.ts points its plugin here): no locale in the URL;
// the reader's locale comes from the switcher's cookie, else Accept-Language (lib/i18n/locales.ts).
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { loadMessages } from "./catalogue";
import { LOCALE_COOKIE, resolveLocale } from "./locales";

export default getRequestConfig(async () => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const { locale, catalogue } = resolveLocale({ cookie: cookieStore.get(LOCALE_COOKIE)?.value, acceptLanguage: headerList.get("accept-language") });
  return {
    locale,
    messages: await loadMessages(catalogue),
    // Pages pass the place's own zone wherever a time is about a place; UTC keeps the rest stable between server and browser.
    timeZone: "UTC",
  };
});
