// The order draft concept: a create-order body in progress, as the wizard's form holds it and the
// save action accepts it. Deliberately lenient (every member optional, strings bounded) — a draft
// is validated for real by the order interface when it is priced or placed, and the API's errors
// come back pointing at the member concerned. Plain zod, not the OpenAPI build: the form only
// imports its types, the server action parses with it.
import { z } from "zod";
import { MAX_EVENT_DATES, MAX_LOCATIONS } from "./limits";
import { DraftIdSchema, LocationIdSchema } from "./order-ids";
import type { Frequency, Season } from "./recurrence-rule";
import type { Angle, Category, CrowdLevel, TimeOfDay } from "./vocabulary";
import { WIZARD_STEPS } from "./wizard-steps";

export { DraftIdSchema };

const text = (max: number) => z.string().max(max);
const finite = z.number().finite();

const DraftRequirementsSchema = z.object({
  angles: z.array(text(40)).max(20).optional(),
  time_of_day: text(20).optional(),
  minimum_crowd: text(20).optional(),
  brand_match: text(200).optional(),
});

export const DraftLocationSchema = z.object({
  location_id: LocationIdSchema,
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
  event_dates: z.array(text(10)).max(MAX_EVENT_DATES).optional(),
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
  frequency?: Frequency;
  season?: Season;
};
export type OrderDraftBody = Omit<Raw, "category" | "locations" | "requirements" | "recurring"> & {
  category?: Category;
  locations?: DraftLocation[];
  requirements?: { angles?: Angle[]; time_of_day?: TimeOfDay; minimum_crowd?: CrowdLevel; brand_match?: string };
  recurring?: DraftRecurring;
};

/**
 * The create-order body a draft stands for: empty strings and the members of a switched-off
 * recurrence left out, angles of a location that follows the order's angles dropped, and only the
 * recurrence members its frequency takes.
 */
export function toCreateBody(body: Raw): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const reference = body.client_reference?.trim();
  if (reference) out.client_reference = reference;
  if (body.category) out.category = body.category;
  const description = body.description?.trim();
  if (description) out.description = description;
  out.locations = (body.locations ?? []).map((l) => ({
    location_id: l.location_id,
    name: l.name.trim(),
    coordinates: { lat: l.coordinates.lat, lng: l.coordinates.lng },
    ...(l.requirements?.angles?.length ? { requirements: { angles: l.requirements.angles } } : {}),
  }));
  const r = body.requirements ?? {};
  const requirements: Record<string, unknown> = {};
  if (r.angles?.length) requirements.angles = r.angles;
  if (r.time_of_day) requirements.time_of_day = r.time_of_day;
  if (r.minimum_crowd) requirements.minimum_crowd = r.minimum_crowd;
  if (r.brand_match?.trim()) requirements.brand_match = r.brand_match.trim();
  if (Object.keys(requirements).length > 0) out.requirements = requirements;
  const recurring = body.recurring;
  if (recurring?.enabled) {
    const rec: Record<string, unknown> = { enabled: true };
    if (recurring.frequency) rec.frequency = recurring.frequency;
    if (recurring.frequency === "weekly" && recurring.day_of_week !== undefined) rec.day_of_week = recurring.day_of_week;
    if (recurring.frequency === "monthly" && recurring.deliver_before !== undefined && recurring.deliver_before !== "")
      rec.deliver_before = recurring.deliver_before;
    if (recurring.season && recurring.season !== "all_year") rec.season = recurring.season;
    if (recurring.time_window) rec.time_window = recurring.time_window;
    if (recurring.event_nights_only) {
      rec.event_nights_only = true;
      rec.event_dates = recurring.event_dates ?? [];
    }
    if (recurring.pause_conditions?.weather_extreme) rec.pause_conditions = { weather_extreme: true };
    out.recurring = rec;
  }
  const url = body.delivery?.webhook_url?.trim();
  if (url) out.delivery = { webhook_url: url };
  return out;
}
