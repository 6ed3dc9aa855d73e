// The operator's price list as the order interface publishes it (GET /prices), as far as the order
// wizard reads it to say beside a choice what it costs more or saves (in the reader's language,
// from the message catalogues). Never written into labels: the operator changes prices, and the
// quote has the last word.
import type { TimeOfDay } from "./vocabulary";

export interface PriceNotesInput {
  currency: string;
  time_of_day_surcharge_percent: Record<TimeOfDay, number>;
  analysis_surcharge_cents: { minimum_crowd: number; brand_match: number };
  recurring_discount_percent: { daily: number; weekly: number; monthly: number };
}
