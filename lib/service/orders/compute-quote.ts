// Prices an order from the price list: one line item per location (its angles × the unit price
// for the category, the time of day and the analysis it asks for), the recurring discount, and
// the plan's quota for the month. Pure: the caller reads the price list and the month's use.
import type { Plan } from "@/lib/db/schema";
import type { Category } from "@/lib/orders/vocabulary";
import type { PricedQuote, RecurringInput, Requirements } from "@/lib/schemas/order";
import { describeRule } from "./cycles/cycle-calendar";
import { PLAN_TERMS } from "./plans";
import type { PriceList } from "./price-list";
import { recurrenceRuleOf } from "./cycles/recurrence-rule-of";

export interface PricedLocation {
  location_id: string;
  name: string;
  requirements: Requirements;
}

export interface QuoteInput {
  category: Category;
  locations: PricedLocation[];
  recurring: RecurringInput | null;
  plan: Plan;
  prices: PriceList;
  priceListUpdatedAt: Date;
  photosUsedThisMonth: number;
  now: Date;
}

/** Order-wide requirements merged into a location's own: the location's values win. */
export function mergeRequirements(orderWide: Requirements | undefined, own: Requirements | undefined): Requirements {
  return { ...orderWide, ...own };
}

export function unitPriceCents(prices: PriceList, category: Category, requirements: Requirements): number {
  const base = prices.per_photo_cents[category];
  const surcharge = requirements.time_of_day ? prices.time_of_day_surcharge_percent[requirements.time_of_day] : 0;
  let unit = Math.round((base * (100 + surcharge)) / 100);
  if (requirements.minimum_crowd) unit += prices.analysis_surcharge_cents.minimum_crowd;
  if (requirements.brand_match) unit += prices.analysis_surcharge_cents.brand_match;
  return unit;
}

export function computeQuote(input: QuoteInput): PricedQuote {
  const { prices } = input;
  const lineItems = input.locations.map((location) => {
    const angles = location.requirements.angles ?? [];
    const unit = unitPriceCents(prices, input.category, location.requirements);
    return {
      location_id: location.location_id,
      name: location.name,
      angles,
      time_of_day: location.requirements.time_of_day ?? null,
      quantity: angles.length,
      unit_amount_cents: unit,
      amount_cents: unit * angles.length,
    };
  });
  const subtotal = lineItems.reduce((sum, item) => sum + item.amount_cents, 0);
  const photos = lineItems.reduce((sum, item) => sum + item.quantity, 0);
  const rule = input.recurring ? recurrenceRuleOf(input.recurring) : null;
  const discountPercent = rule && input.recurring?.frequency ? prices.recurring_discount_percent[input.recurring.frequency] : 0;
  const discountCents = Math.round((subtotal * discountPercent) / 100);
  const quota = PLAN_TERMS[input.plan].photosPerMonth;
  return {
    currency: prices.currency,
    category: input.category,
    plan: input.plan,
    billing: rule ? "per_cycle" : "one_off",
    line_items: lineItems,
    photos_per_cycle: photos,
    subtotal_cents: subtotal,
    discount:
      discountPercent > 0 && input.recurring?.frequency
        ? { reason: `Recurring ${input.recurring.frequency} order`, percent: discountPercent, amount_cents: discountCents }
        : null,
    total_cents: subtotal - discountCents,
    quota: {
      photos_per_month: quota,
      used_this_month: input.photosUsedThisMonth,
      remaining_this_month: quota === null ? null : Math.max(0, quota - input.photosUsedThisMonth),
    },
    schedule: rule ? describeRule(rule) : null,
    price_list_updated_at: input.priceListUpdatedAt.toISOString(),
    created_at: input.now.toISOString(),
  };
}
