// What the order wizard says about prices beside a choice ("+10 %", "+€1.00 per photo", "15 % off
// weekly"), from the operator's price list as the order interface publishes it (GET /prices).
// Never written into labels: the operator changes prices, and the quote has the last word.
import type { TimeOfDay } from "./vocabulary";

export interface PriceNotesInput {
  currency: string;
  time_of_day_surcharge_percent: Record<TimeOfDay, number>;
  analysis_surcharge_cents: { minimum_crowd: number; brand_match: number };
  recurring_discount_percent: { daily: number; weekly: number; monthly: number };
}

const percent = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(1)} %`;

function money(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(cents / 100);
}

/** "+10 %" for a time of day that costs more; null when it costs nothing extra. */
export function timeOfDaySurcharge(timeOfDay: TimeOfDay, prices: PriceNotesInput): string | null {
  const p = prices.time_of_day_surcharge_percent[timeOfDay];
  return p > 0 ? `+${percent(p)}` : null;
}

/** "+€1.00 per photo" for an analysis requirement; null when it is free. */
export function analysisSurcharge(check: "minimum_crowd" | "brand_match", prices: PriceNotesInput): string | null {
  const cents = prices.analysis_surcharge_cents[check];
  return cents > 0 ? `+${money(cents, prices.currency)} per photo` : null;
}

/** "10 % off monthly, 15 % off weekly" (largest saving last); null when no frequency is discounted. */
export function recurringDiscounts(prices: PriceNotesInput): string | null {
  const parts = (["daily", "monthly", "weekly"] as const)
    .map((f) => ({ f, p: prices.recurring_discount_percent[f] }))
    .filter(({ p }) => p > 0)
    .sort((a, b) => a.p - b.p)
    .map(({ f, p }) => `${percent(p)} off ${f}`);
  return parts.length > 0 ? parts.join(", ") : null;
}
