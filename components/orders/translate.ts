// How the order pages' pure helpers (timeline, cycles, payment method, weather) word things: with
// the `orders` namespace's translator the page passes in (useTranslations("orders") in a
// component, createTranslator over messages/<locale>/orders.json in a test), and the locale that
// money, dates and numbers are formatted in. The helpers stay pure; the words live in the catalogue.

/** A translator rooted at the `orders` namespace: key ("timeline.created") and values → text. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

export interface Words {
  t: Translate;
  /** The shared `vocabulary` namespace's translator: categories, angles, time of day ("angle.front"). */
  vocabulary: Translate;
  /** The locale numbers, money and dates are written in (the dashboard's: English reads en-GB). */
  locale: string;
}

/** "18:00" on the reader's clock (24-hour in en-GB and de, 12-hour where the locale says so). */
export function formatClock(hhmm: string, locale: string): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  if (!match) return hhmm;
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(
    Date.UTC(2000, 0, 1, Number(match[1]), Number(match[2])),
  );
}

/** A local date (YYYY-MM-DD) as the reader writes it, e.g. "Fri 11 Jun" / "Fr., 11. Juni". */
export function formatLocalDate(localDate: string, locale: string, { year = false }: { year?: boolean } = {}): string {
  return new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", ...(year ? { year: "numeric" } : {}), timeZone: "UTC" }).format(
    new Date(`${localDate}T00:00:00Z`),
  );
}

/** A distance in metres, whole metres below a kilometre ("30 m", "1.2 km" / "1,2 km"). */
export function formatDistance(metres: number, locale: string): string {
  const km = metres >= 1000;
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: km ? "kilometer" : "meter",
    unitDisplay: "short",
    maximumFractionDigits: km ? 1 : 0,
    minimumFractionDigits: km ? 1 : 0,
  }).format(km ? metres / 1000 : metres);
}

/** The nearest of the eight compass points as a catalogue key ("N", "NE", …). */
export function compassKey(bearingDeg: number): string {
  const points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
  const normal = ((bearingDeg % 360) + 360) % 360;
  return points[Math.round(normal / 45) % 8] ?? "N";
}
