// The operator's price list: a base price per photo by category, a surcharge by time of day and
// for analysis requirements, and the recurring discounts of the spec. Stored as one row, read by
// every quote; orders keep the quote they were created with, so a change never reprices them.
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { priceLists } from "@/lib/db/schema";
import { toJsonText, type JsonText } from "@/lib/service/json-text";
import { CATEGORIES, TIMES_OF_DAY } from "@/lib/orders/vocabulary";

const cents = z.number().int("Whole cents.").min(0).max(10_000_000);
const percent = z.number().min(0).max(100);

export const PriceListSchema = z
  .strictObject({
    currency: z.string().regex(/^[A-Z]{3}$/, "An ISO 4217 code, e.g. EUR."),
    per_photo_cents: z.strictObject(Object.fromEntries(CATEGORIES.map((c) => [c, cents])) as Record<(typeof CATEGORIES)[number], typeof cents>),
    time_of_day_surcharge_percent: z.strictObject(
      Object.fromEntries(TIMES_OF_DAY.map((t) => [t, percent])) as Record<(typeof TIMES_OF_DAY)[number], typeof percent>,
    ),
    analysis_surcharge_cents: z.strictObject({ minimum_crowd: cents, brand_match: cents }),
    recurring_discount_percent: z.strictObject({ daily: percent, weekly: percent, monthly: percent }),
  })
  .openapi("PriceList");

export type PriceList = z.infer<typeof PriceListSchema>;

export const DEFAULT_PRICE_LIST: PriceList = {
  currency: "EUR",
  per_photo_cents: {
    cultural_exterior: 400,
    restaurant_ambiance: 600,
    beach_facility_status: 500,
    retail_compliance: 700,
    event_venue_status: 800,
  },
  time_of_day_surcharge_percent: { daylight: 0, midday: 10, evening: 25 },
  analysis_surcharge_cents: { minimum_crowd: 100, brand_match: 150 },
  // The spec: recurring missions are discounted 10 % (monthly) and 15 % (weekly). Daily orders
  // have no discount in the spec; the operator may set one.
  recurring_discount_percent: { daily: 0, weekly: 15, monthly: 10 },
};

const PRICE_LIST_ID = "default";

/**
 * Read on every quote, changed rarely: kept for a few seconds per process. A change made through
 * this process is seen at once; one made through another instance within CACHE_MS.
 */
const CACHE_MS = 5000;
const cache = new WeakMap<Db, { value: { prices: PriceList; updatedAt: Date }; at: number }>();

export async function getPriceList(db: Db): Promise<{ prices: PriceList; updatedAt: Date }> {
  const cached = cache.get(db);
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const [row] = await db.select().from(priceLists).where(eq(priceLists.id, PRICE_LIST_ID)).limit(1);
  const value = row ? { prices: PriceListSchema.parse(row.prices), updatedAt: row.updatedAt } : { prices: DEFAULT_PRICE_LIST, updatedAt: new Date(0) };
  cache.set(db, { value, at: Date.now() });
  return value;
}

/** The prices in force as the order interface sends them (GET /prices): the list and its `updated_at`. */
export type OrderPrices = PriceList & { updated_at: string };

// Each cached list's JSON, made once: the cache hands out the same object until it reads again.
const json = new WeakMap<{ prices: PriceList; updatedAt: Date }, JsonText<OrderPrices>>();

/** The price list's JSON, as GET /prices sends it. */
export async function getPriceListJson(db: Db): Promise<JsonText<OrderPrices>> {
  const value = await getPriceList(db);
  let text = json.get(value);
  if (text === undefined) {
    text = toJsonText({ ...value.prices, updated_at: value.updatedAt.toISOString() });
    json.set(value, text);
  }
  return text;
}

export async function setPriceList(db: Db, prices: PriceList): Promise<{ prices: PriceList; updatedAt: Date }> {
  const updatedAt = new Date();
  await db.insert(priceLists).values({ id: PRICE_LIST_ID, prices, updatedAt }).onConflictDoUpdate({ target: priceLists.id, set: { prices, updatedAt } });
  cache.delete(db);
  return { prices, updatedAt };
}
