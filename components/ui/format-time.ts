// Times as the webhook and credentials pages say them: "in 58 s", "3 min ago", "24 hours", "1.2 s",
// each in the reader's locale (the dashboard's format locale: en-GB for English, see
// components/ui/use-format-locale.ts).

const cached = <T>(make: (locale: string) => T) => {
  const byLocale = new Map<string, T>();
  return (locale: string): T => {
    let hit = byLocale.get(locale);
    if (!hit) byLocale.set(locale, (hit = make(locale)));
    return hit;
  };
};

const isEnglish = (locale: string) => locale.toLowerCase().split("-")[0] === "en";
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
const relativeFormat = cached((locale) => new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" }));

/**
 * `iso` relative to `nowMs`, at a precision that suits the distance. English is written out (the
 * dashboard's terse "in 58 s"); other languages use Intl.RelativeTimeFormat, rendered in the browser
 * only (components/ui/local-time.tsx), so server and browser ICU versions never have to agree.
 */
export function formatRelative(iso: string, nowMs: number, locale = "en-GB"): string {
  const seconds = Math.round((Date.parse(iso) - nowMs) / 1000);
  const abs = Math.abs(seconds);
  if (!isEnglish(locale)) {
    const rtf = relativeFormat(locale);
    if (abs < 5) return rtf.format(0, "second");
    if (abs < 60) return rtf.format(seconds, "second");
    if (abs < 3600) return rtf.format(Math.round(seconds / 60), "minute");
    if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), "hour");
    return rtf.format(Math.round(seconds / 86_400), "day");
  }
  if (abs < 5) return seconds >= 0 ? "now" : "just now";
  const amount =
    abs < 60 ? `${abs} s` : abs < 3600 ? `${Math.round(abs / 60)} min` : abs < 86_400 ? `${Math.round(abs / 3600)} h` : plural(Math.round(abs / 86_400), "day");
  return seconds > 0 ? `in ${amount}` : `${amount} ago`;
}

const unitFormat = cached((key) => {
  const [locale = "en-GB", unit = "second"] = key.split("|");
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" });
});

/** A span of time in the largest unit that keeps it a whole, readable number ("24 hours", "3 days"). */
export function formatDuration(totalSeconds: number, locale = "en-GB"): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const [amount, unit] =
    s < 120 ? [s, "second"] : s < 2 * 3600 ? [Math.round(s / 60), "minute"] : s < 2 * 86_400 ? [Math.round(s / 3600), "hour"] : [Math.round(s / 86_400), "day"];
  return unitFormat(`${locale}|${unit}`).format(amount);
}

const wholeNumber = cached((locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }));
const oneDecimal = cached((locale) => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }));

/** A request's duration: milliseconds below a second, then seconds with one decimal (SI symbols in every language). */
export function formatMs(ms: number, locale = "en-GB"): string {
  return ms < 1000 ? `${wholeNumber(locale).format(ms)} ms` : `${oneDecimal(locale).format(ms / 1000)} s`;
}

// The locale's own clock (24-hour in most, 12-hour where the locale expects it): never hour12 by hand.
const dateTime = cached((locale) => new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" }));
const date = cached((locale) => new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric" }));

export const formatDateTime = (iso: string, locale = "en-GB") => dateTime(locale).format(new Date(iso));
export const formatDate = (iso: string, locale = "en-GB") => date(locale).format(new Date(iso));
