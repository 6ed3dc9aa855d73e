// The languages the pages speak and how a request picks one. Plain vocabulary (no Next, no I/O) so
// the request config, the switcher and the tests share it.

/** Catalogues of the field page (messages/<code>/<namespace>.json), chosen by the coverage countries' field workforce. */
export const LOCALES = ["en", "es", "pt", "fr", "de", "it", "nl", "pl", "tr", "ar", "he", "hi", "bn", "id", "vi", "th", "ja", "ko", "zh", "sw"] as const;
export type AppLocale = (typeof LOCALES)[number];

/** Catalogues that also cover the dashboard; the others fall back to English there. */
export const DASHBOARD_LOCALES: readonly AppLocale[] = ["en", "es", "fr", "de", "pt", "it", "ja", "ar"];

/** Accented and ~40 % longer English, made from en.json in tests and on demand (cookie only). */
export const PSEUDO_LOCALE = "en-XA";

export const DEFAULT_LOCALE: AppLocale = "en";

/** The remembered choice of the switcher (next-intl's own cookie name). */
export const LOCALE_COOKIE = "NEXT_LOCALE";

/** Each language in its own words, for the switcher. */
export const LOCALE_NAMES: Record<AppLocale, string> = {
  en: "English",
  es: "Español",
  pt: "Português",
  fr: "Français",
  de: "Deutsch",
  it: "Italiano",
  nl: "Nederlands",
  pl: "Polski",
  tr: "Türkçe",
  ar: "العربية",
  he: "עברית",
  hi: "हिन्दी",
  bn: "বাংলা",
  id: "Bahasa Indonesia",
  vi: "Tiếng Việt",
  th: "ไทย",
  ja: "日本語",
  ko: "한국어",
  zh: "简体中文",
  sw: "Kiswahili",
};

const RTL_LANGUAGES = new Set(["ar", "he", "fa", "ur"]);

export function isAppLocale(value: string): value is AppLocale {
  return (LOCALES as readonly string[]).includes(value);
}

/** The catalogue a BCP 47 tag reads from: "es-MX" → "es", "zh-CN" → "zh"; null when we have none (or for Traditional Chinese). */
export function catalogueOf(tag: string): AppLocale | "en-XA" | null {
  if (tag === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  let canonical: Intl.Locale;
  try {
    canonical = new Intl.Locale(tag).maximize();
  } catch {
    return null;
  }
  if (canonical.language === "zh" && canonical.script !== "Hans") return null;
  return isAppLocale(canonical.language) ? canonical.language : null;
}

export function directionOf(tag: string): "ltr" | "rtl" {
  const language = tag.split("-")[0]?.toLowerCase() ?? "";
  return RTL_LANGUAGES.has(language) ? "rtl" : "ltr";
}

/** The tags of an Accept-Language header, best first ("da, en-GB;q=0.8, en;q=0.7"). */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((t) => t.tag && t.tag !== "*" && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((t) => t.tag);
}

export interface ResolvedLocale {
  /** What Intl formats with and <html lang> says: the reader's full tag ("en-US", "es-MX") when we know it. */
  locale: string;
  /** The catalogue (messages/<catalogue>/) it reads from. */
  catalogue: AppLocale | "en-XA";
}

function canonicalTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The reader's locale: the account's setting, else the switcher's remembered cookie, else the first
 * language of Accept-Language we have a catalogue for, else English. The region of the header's tag
 * is kept when its language is the chosen one (en-US reads imperial distances and a 12-hour clock).
 */
export function resolveLocale({
  account,
  cookie,
  acceptLanguage,
}: {
  account?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
}): ResolvedLocale {
  const accepted = parseAcceptLanguage(acceptLanguage).flatMap((t) => canonicalTag(t) ?? []);
  const withRegion = (catalogue: AppLocale | "en-XA"): ResolvedLocale => {
    const regional = accepted.find((t) => catalogueOf(t) === catalogue && t.includes("-"));
    return { locale: catalogue === PSEUDO_LOCALE ? catalogue : (regional ?? catalogue), catalogue };
  };
  for (const chosen of [account, cookie]) {
    const tag = chosen ? canonicalTag(chosen) : null;
    const catalogue = tag ? catalogueOf(tag) : null;
    if (tag && catalogue) return tag.includes("-") && catalogue !== PSEUDO_LOCALE ? { locale: tag, catalogue } : withRegion(catalogue);
  }
  for (const tag of accepted) {
    const catalogue = catalogueOf(tag);
    if (catalogue && catalogue !== PSEUDO_LOCALE) return withRegion(catalogue);
  }
  return { locale: DEFAULT_LOCALE, catalogue: DEFAULT_LOCALE };
}

/** Metric everywhere but where the locale's region measures in miles and feet. */
export function usesImperial(locale: string): boolean {
  try {
    const region = new Intl.Locale(locale).region;
    return region === "US" || region === "LR" || region === "MM";
  } catch {
    return false;
  }
}
