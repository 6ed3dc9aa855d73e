// Areas and distances in the reader's locale, through Intl: digits, separators and (for hectares,
// acres, metres, feet, kilometres and miles) the unit's own name come from the locale. Metric
// everywhere but where the locale's region measures in miles and acres (usesImperial: en-US).
// Squared units have no Intl unit, so m², km² and mi² are the international symbols after a
// locale-formatted number.
import { usesImperial } from "@/lib/i18n/locales";

const SQ_MILE_M2 = 2_589_988.110336;
const ACRE_M2 = 4_046.8564224;
const MILE_M = 1_609.344;
const FOOT_M = 0.3048;

const numberIn = (locale: string, maximumFractionDigits: number) => new Intl.NumberFormat(locale, { maximumFractionDigits });
const unitIn = (locale: string, unit: string, maximumFractionDigits: number) =>
  new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits });

/**
 * The area in the unit a partner would use for that size: 950 m², 12.4 ha, 3.25 km² (metric);
 * 0.5 ac … 640 ac, then 3.1 mi² (imperial). `formatLocale` writes the digits ("en-GB", "de");
 * `measureLocale` (the reader's full tag, "en-US") decides metric or imperial; it defaults to
 * `formatLocale`.
 */
export function formatAreaIn(areaM2: number, formatLocale: string, measureLocale: string = formatLocale): string {
  const value = Math.max(0, areaM2);
  if (usesImperial(measureLocale)) {
    if (value < SQ_MILE_M2) return unitIn(formatLocale, "acre", value < 10 * ACRE_M2 ? 2 : value < 100 * ACRE_M2 ? 1 : 0).format(value / ACRE_M2);
    const mi2 = value / SQ_MILE_M2;
    return `${numberIn(formatLocale, mi2 < 10 ? 2 : mi2 < 100 ? 1 : 0).format(mi2)}\u00a0mi²`;
  }
  if (value < 10_000) return `${numberIn(formatLocale, 0).format(value)}\u00a0m²`;
  if (value < 1_000_000) return unitIn(formatLocale, "hectare", 1).format(value / 10_000);
  const km2 = value / 1_000_000;
  return `${numberIn(formatLocale, km2 < 10 ? 2 : km2 < 100 ? 1 : 0).format(km2)}\u00a0km²`;
}

/** "40 m", "1.2 km", "35 km" (or "130 ft", "1.2 mi"): rounded so the figure is not more precise than GPS. */
export function formatDistanceIn(metres: number, formatLocale: string, measureLocale: string = formatLocale): string {
  const value = Math.max(0, metres);
  if (usesImperial(measureLocale)) {
    const feet = value / FOOT_M;
    if (feet < 1000) return unitIn(formatLocale, "foot", 0).format(Math.max(1, Math.round(feet)));
    const miles = value / MILE_M;
    return unitIn(formatLocale, "mile", miles < 10 ? 1 : 0).format(miles);
  }
  if (value < 1000) return unitIn(formatLocale, "meter", 0).format(Math.max(1, Math.round(value)));
  return unitIn(formatLocale, "kilometer", value < 10_000 ? 1 : 0).format(value / 1000);
}
