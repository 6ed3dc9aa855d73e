// The delivery promise in the reader's words (orders.json "delivery"): a location's estimate and the
// history it rests on, why there is none, why a location cannot be done as ordered — from the codes
// and figures of POST /orders/feasibility and the quote's delivery_estimate (lib/schemas/order.ts).
// Pure: the translator, the locale and (in tests) the time zone come in; the browser passes none,
// so instants are written on the reader's own clock.
import { localClock, localDate, weekdayName } from "./schedule-words";
import type { Words } from "./translate";

export interface CodedReason {
  code: string;
  message: string;
  params: Record<string, string | number>;
}

export interface EstimateFigures {
  p50_hours: number;
  p90_hours: number;
  deliver_by: string;
  basis: {
    similar_tasks: number;
    zoomers_nearby_30d: number;
    radius_km: number;
  };
}

type DeliveryWords = Words & { has: (key: string) => boolean };

const num = (v: string | number | undefined): number => (typeof v === "number" ? v : Number(v ?? 0));
const str = (v: string | number | undefined): string => (v === undefined ? "" : String(v));
const hours = (h: number, locale: string) =>
  new Intl.NumberFormat(locale, {
    maximumFractionDigits: h < 10 ? 1 : 0,
  }).format(h);

/** An instant as "Tue 1 Dec, 14:00 CET" on the reader's clock (or `timeZone`'s). */
export function formatDeliverBy(iso: string, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** "9 in 10 of the 87 similar tasks delivered within 25 km of here took 30 h or less; half took 9.5 h or less." */
export function basisText(estimate: EstimateFigures, { t, locale }: Words): string {
  return t("delivery.basis", {
    count: estimate.basis.similar_tasks,
    radius: estimate.basis.radius_km,
    p90: hours(estimate.p90_hours, locale),
    p50: hours(estimate.p50_hours, locale),
  });
}

/** How many contributors sent a photo near the place in the last 30 days. */
export function zoomersText(estimate: EstimateFigures, { t }: Words): string {
  return t("delivery.zoomersNearby", {
    count: estimate.basis.zoomers_nearby_30d,
    radius: estimate.basis.radius_km,
  });
}

/** "18:00-20:00" → "18:00–20:00" on the reader's clock; the text as it came when it is not a window. */
function windowText(window: string, locale: string): string {
  const match = /^(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$/.exec(window);
  return match ? `${localClock(match[1] ?? "", locale)}–${localClock(match[2] ?? "", locale)}` : window;
}

const ymd = (v: string | number | undefined) => /^\d{4}-\d{2}-\d{2}$/.test(str(v));

/**
 * A reason (a feasibility reason or why there is no estimate) as a whole sentence in the reader's
 * language. A code the catalogue has no sentence for reads as the service's English message.
 */
export function reasonText(reason: CodedReason, words: DeliveryWords): string {
  const { code, params } = reason;
  const key = `delivery.reason.${code}`;
  if (!words.has(key)) return reason.message;
  const { t, locale } = words;
  const date = (v: string | number | undefined) => (ymd(v) ? localDate(str(v), locale, "weekday") : str(v));
  let text: string;
  switch (code) {
    case "no_history":
      text = t(key, { radius: num(params.radius_km) });
      break;
    case "too_little_history":
      text = t(key, {
        count: num(params.similar_tasks),
        minimum: num(params.minimum),
        radius: num(params.radius_km),
      });
      break;
    case "no_contributors_nearby":
      text = t(key, { radius: num(params.radius_km), days: num(params.days) });
      break;
    case "polar_night":
    case "polar_day":
      text = t(key, {
        date: date(params.date),
        timeOfDay: str(params.time_of_day) || "any",
      });
      break;
    case "no_window":
      // A one-off order looks a number of days ahead; a recurring one at its schedule.
      text = t(key, {
        within: params.days === undefined ? "schedule" : "days",
        days: num(params.days),
        timeOfDay: str(params.time_of_day) || "any",
      });
      break;
    case "outside_season":
      text = t(key, { season: str(params.season) });
      break;
    case "not_on_weekday":
      text = t(key, {
        weekday: weekdayName(num(params.day_of_week) || 1, locale),
      });
      break;
    case "sun_never_in_window":
      text = t(key, {
        window: windowText(str(params.time_window), locale),
        timeOfDay: str(params.time_of_day),
      });
      break;
    case "event_date_closed":
      text = t(key, { date: date(params.date) });
      break;
    case "location_without_estimate":
      text = t(key, { count: num(params.locations) });
      break;
    default:
      text = t(key);
  }
  // The day the sun allows the time of day again, where the service found one.
  if ((code === "polar_night" || code === "polar_day") && ymd(params.until)) text = `${text} ${t("delivery.reason.nextOn", { date: date(params.until) })}`;
  return text;
}

/** Reasons that say why a location cannot be done (the others say why it has no estimate). */
export const ESTIMATE_REASONS = new Set(["no_history", "too_little_history"]);
