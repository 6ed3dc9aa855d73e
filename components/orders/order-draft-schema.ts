// The order draft concept: a create-order body in progress, as the wizard's form holds it and the
// save action accepts it. Deliberately lenient (every member optional, strings bounded) — a draft
// is validated for real by the order interface when it is priced or placed, and the API's errors
// come back pointing at the member concerned. Plain zod, not the OpenAPI build: the form only
// imports its types, the server action parses with it.
import { z } from "zod";
import type { Angle, Category, CrowdLevel, TimeOfDay } from "./types";
import { MAX_LOCATIONS } from "./types";
import { WIZARD_STEPS } from "./wizard-steps";

const text = (max: number) => z.string().max(max);
const finite = z.number().finite();

const DraftRequirementsSchema = z.object({
  angles: z.array(text(40)).max(20).optional(),
  time_of_day: text(20).optional(),
  minimum_crowd: text(20).optional(),
  brand_match: text(200).optional(),
});

export const DraftLocationSchema = z.object({
  location_id: z.string().regex(/^loc_[A-Za-z0-9_-]{1,64}$/),
  name: text(200),
  coordinates: z.object({ lat: finite, lng: finite }),
  requirements: z.object({ angles: z.array(text(40)).max(20).optional() }).optional(),
});

export const DraftRecurringSchema = z.object({
  enabled: z.boolean(),
  frequency: text(20).optional(),
  day_of_week: z.number().int().min(1).max(7).optional(),
  deliver_before: z.union([text(10), z.number().int()]).optional(),
  season: text(20).optional(),
  time_window: text(20).optional(),
  event_nights_only: z.boolean().optional(),
  event_dates: z.array(text(10)).max(366).optional(),
  pause_conditions: z.object({ weather_extreme: z.boolean().optional() }).optional(),
});

export const OrderDraftBodySchema = z.object({
  client_reference: text(200).optional(),
  category: text(40).optional(),
  description: text(5000).optional(),
  locations: z.array(DraftLocationSchema).max(MAX_LOCATIONS, `At most ${MAX_LOCATIONS} locations per order.`).optional(),
  requirements: DraftRequirementsSchema.optional(),
  recurring: DraftRecurringSchema.optional(),
  delivery: z.object({ webhook_url: text(2048).optional() }).optional(),
});

export const DraftIdSchema = z.string().regex(/^drf_[A-Za-z0-9]{1,64}$/, "Not a draft id.");

/** What the save action takes: the draft, the version this save replaces, and the step shown. */
export const SaveDraftSchema = z.object({
  id: DraftIdSchema,
  version: z.number().int().min(1),
  step: z.enum(WIZARD_STEPS),
  body: OrderDraftBodySchema,
});

type Raw = z.infer<typeof OrderDraftBodySchema>;

/** The body with the enumerations the form offers typed as such (the schema keeps them as text). */
export type DraftLocation = Omit<z.infer<typeof DraftLocationSchema>, "requirements"> & { requirements?: { angles?: Angle[] } };
export type DraftRecurring = Omit<z.infer<typeof DraftRecurringSchema>, "frequency" | "season"> & {
  frequency?: "daily" | "weekly" | "monthly";
  season?: "all_year" | "summer_only" | "winter_only";
};
export type OrderDraftBody = Omit<Raw, "category" | "locations" | "requirements" | "recurring"> & {
  category?: Category;
  locations?: DraftLocation[];
  requirements?: { angles?: Angle[]; time_of_day?: TimeOfDay; minimum_crowd?: CrowdLevel; brand_match?: string };
  recurring?: DraftRecurring;
};
