// The order concept's schemas: the create-order body of the spec (validated member by member, so
// every error points at the exact member), the order, its quote, its schedule and the delivered
// photo record. One source for the API's validation and its OpenAPI document; the vocabulary
// (categories, angles, limits, recurrence parsing) comes from lib/orders, which the dashboard
// imports too. Nothing here reaches the service or the database.
import { z } from "@hono/zod-openapi";
import { MAX_EVENT_DATES, MAX_LOCATIONS } from "@/lib/orders/limits";
import { LOCATION_ID_PATTERN, LOCATION_ID_RULE } from "@/lib/orders/order-ids";
import { FREQUENCIES, SEASONS, parseDayOfMonth, parseTimeWindow } from "@/lib/orders/recurrence-rule";
import { DeviceEvidenceSchema } from "./device-evidence";
import {
  ANGLE_DESCRIPTIONS,
  ANGLES,
  CATEGORIES,
  CROWD_LEVELS,
  DELIVERY_STATUSES,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  TIMES_OF_DAY,
  type Angle,
  type Category,
  type TimeOfDay,
} from "@/lib/orders/vocabulary";

export type { Angle, Category, TimeOfDay };

export const AngleSchema = z.enum(ANGLES, { error: () => `Use one of ${ANGLES.join(", ")}.` }).openapi("Angle", {
  description: Object.entries(ANGLE_DESCRIPTIONS)
    .map(([angle, text]) => `\`${angle}\`: ${text}`)
    .join("\n"),
});

export const RequirementsSchema = z
  .strictObject({
    angles: z
      .array(AngleSchema)
      .min(1, "Ask for at least one angle.")
      .max(ANGLES.length)
      .superRefine((angles, ctx) => {
        angles.forEach((angle, index) => {
          if (angles.indexOf(angle) !== index) ctx.addIssue({ code: "custom", path: [index], message: `"${angle}" is listed twice.` });
        });
      })
      .optional()
      .openapi({ description: "Photos to take, one per angle.", example: ["front", "entrance"] }),
    time_of_day: z
      .enum(TIMES_OF_DAY, { error: () => `Use one of ${TIMES_OF_DAY.join(", ")}.` })
      .optional()
      .openapi({
        description:
          "`daylight` (sun above the horizon), `midday` (within 2 h of solar noon), `evening` (from 1 h before sunset to 2 h after). A recurring order's daily, weekly and event cycles are narrowed to that time at each location, so a cycle whose time has passed for the day runs on its next day (tomorrow, next week).",
      }),
    minimum_crowd: z
      .enum(CROWD_LEVELS, { error: () => `Use one of ${CROWD_LEVELS.join(", ")}.` })
      .optional()
      .openapi({ description: "How busy the place must look (checked by an analyser when one is configured)." }),
    brand_match: z
      .string()
      .trim()
      .min(1)
      .max(100, "At most 100 characters.")
      .optional()
      .openapi({ description: "A brand name that must be visible (checked by an analyser when one is configured)." }),
  })
  .openapi("Requirements", { description: "Order-wide requirements merge into each location's; a location's own values win." });

export type Requirements = z.infer<typeof RequirementsSchema>;

export const LocationInputSchema = z
  .strictObject({
    location_id: z
      .string()
      .max(68)
      .regex(LOCATION_ID_PATTERN, LOCATION_ID_RULE)
      .optional()
      .openapi({ description: "Your id for the location (unique within the order); we assign one when absent.", example: "loc_duomo" }),
    name: z.string().trim().min(1, "Name the location.").max(200, "At most 200 characters.").openapi({ example: "Duomo di Firenze" }),
    coordinates: z.strictObject({
      lat: z.number().min(-90, "Latitude is between -90 and 90.").max(90, "Latitude is between -90 and 90.").openapi({ example: 43.7731 }),
      lng: z.number().min(-180, "Longitude is between -180 and 180.").max(180, "Longitude is between -180 and 180.").openapi({ example: 11.256 }),
    }),
    requirements: RequirementsSchema.optional(),
  })
  .openapi("OrderLocationInput");

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export const RecurringSchema = z
  .strictObject({
    enabled: z.boolean().openapi({ description: "false makes the order one-off (the other members are then ignored)." }),
    frequency: z.enum(FREQUENCIES, { error: () => `Use one of ${FREQUENCIES.join(", ")}.` }).optional(),
    day_of_week: z
      .number()
      .int("A whole number.")
      .min(1, "ISO day of week: 1 (Monday) to 7 (Sunday).")
      .max(7, "ISO day of week: 1 (Monday) to 7 (Sunday).")
      .optional()
      .openapi({ description: "Weekly orders: ISO day of week, 1 = Monday … 7 = Sunday (5 = Friday).", example: 5 }),
    deliver_before: z
      .union([z.string().max(4), z.number().int().min(1).max(31)])
      .refine((value) => parseDayOfMonth(value) !== null, 'A day of the month from 2 to 31, e.g. "15th" or 15.')
      .optional()
      .openapi({
        description: 'Monthly orders: photos are delivered before this day of the month ("15th"). A month without that day uses its last day.',
        example: "15th",
      }),
    season: z
      .enum(SEASONS, { error: () => `Use one of ${SEASONS.join(", ")}.` })
      .optional()
      .openapi({ description: "`summer_only`: June–August north of the equator, December–February south of it; `winter_only` the opposite months." }),
    time_window: z
      .string()
      .max(11)
      .refine((value) => parseTimeWindow(value) !== null, 'Use "HH:MM-HH:MM" (24-hour, local time), e.g. "18:00-21:00"; start and end differ.')
      .optional()
      .openapi({
        description: 'Local time at each location, HH:MM-HH:MM. An end before the start means the window runs past midnight ("22:00-02:00").',
        example: "18:00-21:00",
      }),
    event_nights_only: z
      .boolean()
      .optional()
      .openapi({ description: "Cycles only on the dates in `event_dates` (those the season and a weekly order's `day_of_week` allow)." }),
    event_dates: z
      .array(z.string().max(10).regex(DATE, "Use YYYY-MM-DD.").refine(isRealDate, "Not a calendar date."))
      .max(MAX_EVENT_DATES)
      .optional()
      .openapi({
        description:
          "Local dates of the events (YYYY-MM-DD), with `event_nights_only`. Each date lies from today to two years ahead (730 days), read in each location's local date; a date outside that is refused with 422 at create and quote, pointing at it. The season and, for a weekly order that names one, `day_of_week` still apply: the dates they exclude get no cycle, and an order left with no cycle to run (every date excluded, or today's window already closed) is refused with 422 pointing at the member that empties it (`/recurring/season`, `/recurring/day_of_week`, `/recurring/event_dates/{i}`).",
        example: ["2027-06-12", "2027-06-13"],
      }),
    pause_conditions: z.strictObject({ weather_extreme: z.boolean().optional() }).optional().openapi({
      description:
        "`weather_extreme`: before each cycle, read the forecast of every location's window; a location with extreme weather forecast (thunderstorm, heavy rain or snow, gusts ≥ 75 km/h, ≥ 40 °C, ≤ −20 °C) is left out of that cycle and not charged (`order.location.skipped`); when all are, the cycle is skipped (`order.cycle.skipped`, reason `weather_extreme`). Without a forecast the cycle goes ahead.",
    }),
  })
  .superRefine((r, ctx) => {
    if (!r.enabled) return;
    if (!r.frequency && !r.event_nights_only) ctx.addIssue({ code: "custom", path: ["frequency"], message: "Say how often: daily, weekly or monthly." });
    if (r.day_of_week !== undefined && r.frequency !== "weekly")
      ctx.addIssue({ code: "custom", path: ["day_of_week"], message: "Only weekly orders take a day of the week." });
    if (r.deliver_before !== undefined && r.frequency !== "monthly")
      ctx.addIssue({ code: "custom", path: ["deliver_before"], message: "Only monthly orders take deliver_before." });
    if (r.event_nights_only && (r.event_dates?.length ?? 0) === 0)
      ctx.addIssue({ code: "custom", path: ["event_dates"], message: "List the event dates when event_nights_only is set." });
    if (!r.event_nights_only && r.event_dates !== undefined)
      ctx.addIssue({ code: "custom", path: ["event_dates"], message: "Event dates go with event_nights_only: true." });
  })
  .openapi("Recurring");

export type RecurringInput = z.infer<typeof RecurringSchema>;

export const DeliveryInputSchema = z
  .strictObject({
    webhook_url: z.string().max(2048, "At most 2048 characters.").optional().openapi({
      description: "Receives this order's events, signed with the organisation's order-delivery secret. Private targets are refused.",
      example: "https://partner.example/hooks/orders",
    }),
  })
  .openapi("DeliveryInput");

export const CreateOrderSchema = z
  .strictObject({
    client_reference: z.string().trim().min(1).max(200, "At most 200 characters.").optional().openapi({ example: "florence-q3-2027" }),
    category: z.enum(CATEGORIES, { error: () => `Use one of ${CATEGORIES.join(", ")}.` }).openapi({ example: "cultural_exterior" }),
    description: z.string().max(5000, "At most 5000 characters.").optional(),
    locations: z.array(LocationInputSchema).min(1, "Give at least one location.").max(MAX_LOCATIONS, `At most ${MAX_LOCATIONS} locations per order.`),
    requirements: RequirementsSchema.optional(),
    recurring: RecurringSchema.optional(),
    delivery: DeliveryInputSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.locations.forEach((location, index) => {
      if (location.location_id) {
        const first = seen.get(location.location_id);
        if (first !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["locations", index, "location_id"],
            message: `"${location.location_id}" is already used by location ${first}.`,
          });
        } else seen.set(location.location_id, index);
      }
      const angles = location.requirements?.angles ?? body.requirements?.angles;
      if (!angles) {
        ctx.addIssue({
          code: "custom",
          path: ["locations", index, "requirements", "angles"],
          message: "Say which angles to shoot, here or in the order-wide requirements.",
        });
      }
    });
  })
  .openapi("CreateOrder");

export type CreateOrderInput = z.infer<typeof CreateOrderSchema>;

export const ConfirmOrderSchema = z
  .strictObject({
    payment_method: z.literal("card", { error: () => 'Use "card": the organisation\'s card on file.' }).openapi({ example: "card" }),
    payment_method_id: z
      .string()
      .max(100)
      .optional()
      .openapi({ description: "Test mode only: charge this test payment method instead of the card on file (see the order guide)." }),
  })
  .openapi("ConfirmOrder");

export const DeliveryTestSchema = z
  .strictObject({
    url: z.string().min(1, "Give the URL to test.").max(2048, "At most 2048 characters.").openapi({
      description: "The webhook URL to send a signed `order.delivery.test` event to, checked like `delivery.webhook_url`.",
      example: "https://partner.example/hooks/orders",
    }),
  })
  .openapi("DeliveryTest");

export const DeliveryTestResultSchema = z
  .object({
    url: z.string().openapi({ description: "The URL as it was checked and called." }),
    event_id: z.string().openapi({ description: "The test event's id (webhook-id / X-SVC-Event-Id)." }),
    ok: z.boolean().openapi({ description: "The receiver answered 2xx." }),
    status_code: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null when it did not answer." }),
    duration_ms: z.number().int(),
    error: z.string().nullable().openapi({ description: "Why nothing came back (timeout, refused connection, private address…)." }),
    response_snippet: z.string().nullable().openapi({ description: "The first 512 bytes of the receiver's answer." }),
  })
  .openapi("DeliveryTestResult");

export const CancelOrderSchema = z.strictObject({ reason: z.string().max(500).optional() }).openapi("CancelOrder");

// ----- the delivery promise: feasibility and the estimate -----

export const FeasibilityReasonSchema = z
  .object({
    code: z.string().openapi({
      example: "no_history",
      description:
        "Stable. Why a location cannot be done: `polar_night`, `polar_day` (no evening under the midnight sun), `sun_never_in_window`, `outside_season`, `not_on_weekday`, " +
        "`event_date_out_of_range`, `event_date_closed`, `no_window`, `no_contributors_nearby` (no contributor sent a photo within 100 km in 30 days). " +
        "Why no estimate is given: `no_history`, `too_little_history`; for the order: `location_without_estimate`.",
    }),
    message: z
      .string()
      .openapi({ description: "The reason in English.", example: "No task within 100 km of this place has been delivered yet, so no estimate can be given." }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .openapi({ description: "The figures of the message, for saying it in another language.", example: { radius_km: 100 } }),
  })
  .openapi("FeasibilityReason");

export const DeliveryEstimateSchema = z
  .object({
    p50_hours: z.number().openapi({ description: "Half of the similar tasks were delivered within this many hours of opening.", example: 9.5 }),
    p90_hours: z.number().openapi({ description: "Nine in ten were delivered within this many hours of opening.", example: 30 }),
    deliver_by: z.string().openapi({
      description: "ISO 8601 (UTC): when the task opens (at once for a one-off order, its first window for a recurring one) plus p90_hours.",
      example: "2026-12-01T14:00:00.000Z",
    }),
    basis: z
      .object({
        similar_tasks: z
          .number()
          .int()
          .openapi({ description: "Delivered order locations the figures rest on (the newest 500 at most, within the last 365 days).", example: 10 }),
        zoomers_nearby_30d: z.number().int().openapi({ description: "Contributors who sent a photo within radius_km in the last 30 days.", example: 4 }),
        radius_km: z
          .number()
          .openapi({ description: "How far around the place the history was read: 25 km, or 100 km when 25 km holds fewer than 3 tasks.", example: 25 }),
      })
      .openapi("EstimateBasis"),
  })
  .openapi("DeliveryEstimate", {
    description:
      "From the service's own history: order locations delivered near the place, each timed from its task opening (dispatch, or its window's start) to delivery, retakes included; p50 and p90 are quantiles of that sample (linear interpolation, as percentile_cont). Never an invented figure: without enough history there is no estimate.",
  });

// ----- responses -----

export const LineItemSchema = z
  .object({
    location_id: z.string(),
    name: z.string(),
    angles: z.array(AngleSchema),
    time_of_day: z.enum(TIMES_OF_DAY).nullable(),
    quantity: z.number().int().openapi({ description: "Photos per cycle at this location." }),
    unit_amount_cents: z.number().int(),
    amount_cents: z.number().int(),
  })
  .openapi("QuoteLineItem");

export const DeliveryStatusSchema = z.enum(DELIVERY_STATUSES).openapi("DeliveryStatus", {
  description:
    "Where a dispatched location stands against its promise (`deliver_by`). Open: `on_track`; `at_risk` — its task was left untaken past its expected take time and was escalated " +
    "(shown first, and to contributors farther away); `late` — deliver_by passed. Delivered: `delivered_on_time`, or `delivered_late` (after deliver_by, or once it had been late). " +
    "Moved by the service's sweep about once a minute; an at-risk location stays at risk until it is delivered or late.",
});

export const DeliveryPromiseSchema = z
  .object({
    deliver_by: z.string().openapi({
      description: "ISO 8601 (UTC): the promise if the order were paid at the quote's `created_at` (a recurring order: its first cycle's).",
      example: "2026-12-01T14:00:00.000Z",
    }),
    hours: z.number().openapi({
      description: "From the task's opening (payment for a one-off order, the cycle's window start for a recurring one) to deliver_by.",
      example: 48,
    }),
    source: z.enum(["plan", "estimate"]).openapi({
      description:
        "Which promise is the later, and so binds: the plan's (48 h Developer, 24 h Business and Enterprise after payment; a recurring cycle's window end) or the estimate's (opening + p90_hours).",
    }),
    expected_take_hours: z.number().openapi({
      description:
        "After the opening, a task still untaken is escalated and the location turns at_risk: the estimate's p50_hours, or half-way to deliver_by without an estimate.",
    }),
  })
  .openapi("DeliveryPromise", {
    description:
      "What the order promises before it is paid: the later of the plan's promise and the delivery estimate. Each dispatched location gets its `deliver_by` from it when its task opens (for a one-off order exactly `hours` after payment), stored then and never recomputed.",
  });

export const QuoteSchema = z
  .object({
    currency: z.string().openapi({ example: "EUR" }),
    category: z.enum(CATEGORIES),
    plan: z.enum(["developer", "business", "enterprise"]),
    billing: z
      .enum(["one_off", "per_cycle"])
      .openapi({ description: "`per_cycle`: recurring orders are charged each cycle's total when it is dispatched; the first at confirmation." }),
    line_items: z.array(LineItemSchema),
    photos_per_cycle: z.number().int(),
    subtotal_cents: z.number().int(),
    discount: z
      .object({ reason: z.string(), percent: z.number(), amount_cents: z.number().int() })
      .nullable()
      .openapi({ description: "Recurring discount: 10 % monthly, 15 % weekly." }),
    total_cents: z.number().int().openapi({ description: "What one cycle (or the one-off order) costs." }),
    quota: z.object({
      photos_per_month: z.number().int().nullable().openapi({ description: "null: unlimited." }),
      used_this_month: z.number().int(),
      remaining_this_month: z.number().int().nullable(),
    }),
    schedule: z.string().nullable().openapi({ description: 'The recurrence in words, e.g. "Every Friday, June to August, 18:00–21:00 local time".' }),
    price_list_updated_at: z.string(),
    created_at: z.string(),
    delivery_estimate: DeliveryEstimateSchema.nullable().openapi({
      description:
        "When the order would be delivered if paid at `created_at`, as POST /orders/feasibility answers it (the order's estimate); null when it cannot be given, with `delivery_estimate_reasons`.",
    }),
    delivery_estimate_reasons: z.array(FeasibilityReasonSchema).openapi({ description: "Why `delivery_estimate` is null; empty when there is one." }),
    delivery_promise: DeliveryPromiseSchema.nullable().openapi({
      description: "The promise this quote states; null only on orders created before promises were stated.",
    }),
  })
  .openapi("Quote");

export type Quote = z.infer<typeof QuoteSchema>;
/** What the price list alone decides: a quote before its delivery estimate and promise are added. */
export type PricedQuote = Omit<Quote, "delivery_estimate" | "delivery_estimate_reasons" | "delivery_promise">;

export const OrderLocationSchema = z
  .object({
    location_id: z.string(),
    name: z.string(),
    coordinates: z.object({ lat: z.number(), lng: z.number() }),
    time_zone: z.string().openapi({ example: "Europe/Rome" }),
    requirements: RequirementsSchema.openapi({ description: "The merged requirements in force at this location." }),
    cycle_index: z.number().int().nullable().openapi({
      description: "The cycle the promise fields below describe: the location's latest dispatched one (0 for a one-off order); null before dispatch.",
    }),
    deliver_by: z.string().nullable().openapi({ description: "ISO 8601 (UTC): the promise, fixed when the location was dispatched; null before." }),
    expected_take_by: z
      .string()
      .nullable()
      .openapi({ description: "A task still untaken after this is escalated and the location turns at_risk; null before dispatch." }),
    delivery_status: DeliveryStatusSchema.nullable().openapi({ description: "null before dispatch." }),
    escalated: z
      .boolean()
      .openapi({ description: "Its task was left untaken past its expected take time: it is shown first, and to contributors farther away." }),
    cancelled_at: z
      .string()
      .nullable()
      .openapi({ description: "When the location was cancelled free of charge (late, or delivered late) and its price refunded." }),
  })
  .openapi("OrderLocation");

export const PaymentSchema = z
  .object({
    id: z.string().openapi({ example: "pay_06h0…" }),
    kind: z.enum(["charge", "refund"]),
    status: z.enum(PAYMENT_STATUSES),
    amount_cents: z.number().int(),
    currency: z.string(),
    cycle_index: z.number().int().nullable(),
    payment_method: z.string(),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    next_action: z
      .object({ type: z.literal("authenticate"), url: z.string() })
      .nullable()
      .openapi({ description: "When the card needs the customer's authentication (3-D Secure): where to complete it." }),
    created_at: z.string(),
  })
  .openapi("Payment");

export const OrderStatusSchema = z.enum(ORDER_STATUSES).openapi("OrderStatus");

export const OrderSchema = z
  .object({
    id: z.string().openapi({ example: "ord_06h0m4b7yq4r6t9v0wxyzab3k" }),
    client_reference: z.string().nullable(),
    category: z.enum(CATEGORIES),
    description: z.string(),
    status: OrderStatusSchema,
    status_reason: z.string().nullable(),
    locations: z.array(OrderLocationSchema),
    requirements: RequirementsSchema,
    recurring: RecurringSchema.nullable(),
    delivery: z.object({ webhook_url: z.string().nullable() }),
    quote: QuoteSchema,
    payments: z.array(PaymentSchema),
    amount_charged_cents: z.number().int(),
    amount_refunded_cents: z.number().int(),
    missions: z.object({ total: z.number().int(), active: z.number().int(), completed: z.number().int(), cancelled: z.number().int() }),
    next_cycle: z
      .object({ index: z.number().int(), local_date: z.string(), dispatch_at: z.string() })
      .nullable()
      .openapi({ description: "Recurring orders: the next cycle the scheduler will dispatch." }),
    deliver_by: z
      .string()
      .nullable()
      .openapi({ description: "ISO 8601 (UTC): the latest of its locations' `deliver_by` (each location's latest cycle); null before dispatch." }),
    delivery_status: DeliveryStatusSchema.nullable().openapi({
      description:
        "The worst of its open locations' (late, at_risk, on_track); once none is open, `delivered_late` if any was, else `delivered_on_time`; null before dispatch, or when nothing was delivered and nothing is open.",
    }),
    created_at: z.string(),
    updated_at: z.string(),
    confirmed_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    expires_at: z.string().nullable().openapi({ description: "An unconfirmed order expires at this time (7 days after creation)." }),
  })
  .openapi("Order");

export type Order = z.infer<typeof OrderSchema>;

export const ScheduleSchema = z
  .object({
    order_id: z.string(),
    description: z.string(),
    status: OrderStatusSchema,
    photos_per_cycle: z.number().int(),
    cycles: z.array(
      z.object({
        index: z.number().int(),
        local_date: z.string(),
        status: z.enum(["scheduled", "dispatched", "skipped"]),
        skip_reason: z.string().nullable(),
        dispatch_at: z.string().openapi({ description: "When the service dispatches this cycle's missions (UTC)." }),
        windows: z
          .array(
            z.object({
              time_zone: z.string(),
              local_window: z.string().nullable(),
              crosses_midnight: z.boolean(),
              starts_at: z.string(),
              ends_at: z.string(),
              location_ids: z.array(z.string()),
            }),
          )
          .openapi({ description: "The cycle's window in each time zone the order's locations are in." }),
      }),
    ),
  })
  .openapi("OrderSchedule");

// ----- the order's field work and drafts -----

/** A check as verification records it: its verdict, score, measured value and threshold, words for the partner and the zoomer. */
/** A server-made sentence as a stable code and its figures (lib/verification/place-checks.ts Localisable). */
export const LocalisableSchema = z
  .object({
    code: z
      .string()
      .openapi({ example: "angle_match.face", description: "Stable: never renamed. `text` carries an English sentence that has no code yet in params.text." }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .openapi({ example: { angle: "front", place: "Loggia dei Lanzi", direction: "NE", off_deg: 172.4 } }),
  })
  .openapi("Localisable", {
    description: "A message as a code and its figures, so a page can say it in the reader's language; the English text stays beside it.",
  });

export const RecordedCheckSchema = z
  .object({
    status: z.enum(["passed", "failed", "not_evaluated"]),
    passed: z.boolean(),
    score: z.number(),
    message: z.string(),
    instruction: z.string().nullable(),
    code: z.string().optional().openapi({ description: "`message` as a stable code (with `params`), where the check has one." }),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    instruction_codes: z.array(LocalisableSchema).optional().openapi({ description: "`instruction` as codes and figures, for a failed check that has them." }),
  })
  .catchall(z.unknown())
  .openapi("RecordedCheck", { description: "Also the measured `value`, the `threshold` and check-specific members." });

export const AssignmentVerificationSchema = z
  .object({
    status: z
      .enum(["approved", "rejected", "held"])
      .openapi({ description: "`held`: the authenticity check failed; the photo waits for the account manager's decision (POST …/photos/{photo_id}/review)." }),
    ai_checks: z.record(z.string(), RecordedCheckSchema).openapi({
      description:
        "By check: location_match, angle_match, time_of_day, quality, obstruction, minimum_crowd, brand_match, authenticity. `authenticity` has `extra.signals`: " +
        "device_position (metres between the phone's reported position and the EXIF GPS; threshold 100 m + the phone's accuracy up to 200 m), edit_traces (warning signs found " +
        "in the file: an editing program, a last-modified time before capture, a GPS clock more than 48 h from the camera's, missing maker notes, a thumbnail of another picture; threshold 0), " +
        "capture_time (hours from capture to upload; −10 min to 24 h), seen_elsewhere (difference-hash bits to the same picture elsewhere in the service; ≤ 4 is the same), " +
        "each with status, value, threshold and message (English), and the message as a stable `code` with `params` (signals recorded since codes were added), plus `extra.device_position`, `extra.exif_position`, `extra.captured_at`, `extra.received_at`.",
    }),
    instructions: z.array(z.string()).openapi({ description: "What the zoomer is told for a retake." }),
    instruction_codes: z
      .array(LocalisableSchema)
      .optional()
      .openapi({ description: "The instructions as codes and figures (verdicts since codes were added)." }),
  })
  .openapi("AssignmentVerification");

export const LocationFeasibilitySchema = z
  .object({
    location_id: z.string().nullable().openapi({ description: "The location_id sent, or null when none was." }),
    name: z.string(),
    feasible: z.boolean().openapi({
      description:
        "false when the order's time of day, hours, weekday, season or dates leave no window here, or no contributor is active nearby; `reasons` says which.",
    }),
    reasons: z
      .array(FeasibilityReasonSchema)
      .openapi({ description: "Why the location is not feasible, and why it has no estimate; empty when there is nothing to say." }),
    next_windows: z
      .array(
        z
          .object({
            start: z.string().openapi({ description: "ISO 8601 with the location's local offset.", example: "2026-11-29T18:00:00+01:00" }),
            end: z.string().openapi({ example: "2026-11-29T20:00:00+01:00" }),
          })
          .openapi("TimeWindow"),
      )
      .openapi({
        description:
          "Up to 5 next times the photos could be taken, if the order were confirmed now: for a one-off order the sun's windows (its `time_of_day`) within the next 7 days, or the whole 7 days when it asks none; for a recurring order its cycles, narrowed to its hours and the sun (a monthly cycle as the days inside it). A window already open starts now.",
      }),
    estimate: DeliveryEstimateSchema.nullable().openapi({ description: "null when there is not enough history near the place; `reasons` says why." }),
  })
  .openapi("LocationFeasibility");

export const FeasibilitySchema = z
  .object({
    feasible: z.boolean().openapi({ description: "Every location is feasible." }),
    locations: z.array(LocationFeasibilitySchema).openapi({ description: "One per location, in the order they were sent." }),
    estimate: DeliveryEstimateSchema.nullable().openapi({
      description:
        "The order's: it is delivered when its slowest location is, so each figure is the largest of its locations'; the basis counts all their samples once. null when any location has none.",
    }),
    reasons: z.array(FeasibilityReasonSchema).openapi({ description: "Why the order's estimate is null (`location_without_estimate`); empty otherwise." }),
    created_at: z.string(),
  })
  .openapi("Feasibility");

export type Feasibility = z.infer<typeof FeasibilitySchema>;

/** A quote answered before anything exists: the quote an order would keep, and a recurring order's next cycles as they would fall if confirmed now. */
export const QuotePreviewSchema = QuoteSchema.extend({
  next_cycles: z
    .array(
      z.object({
        index: z.number().int(),
        local_date: z.string().openapi({ example: "2026-11-27" }),
        dispatch_at: z.string().openapi({ description: "When the cycle would be dispatched (UTC)." }),
      }),
    )
    .nullable()
    .openapi({
      description:
        "Recurring orders: the next cycles if the order were confirmed now (up to 4; GET /orders/{id}/schedule has the real ones). null for one-off orders.",
    }),
}).openapi("QuotePreview");

export const OrderAssignmentSchema = z
  .object({
    id: z.string(),
    mission_id: z.string(),
    location_id: z.string(),
    cycle_index: z.number().int(),
    angle: AngleSchema,
    attempt: z.number().int().openapi({ description: "0, then 1–3 for retakes." }),
    status: z.enum(["open", "reserved", "submitted", "held_for_review", "verified", "failed", "given_up", "cancelled"]),
    late: z.boolean().openapi({ description: "The deadline passed before the photo was verified; the task stays on offer." }),
    deadline_at: z.string(),
    zoomer_id: z.string().nullable(),
    photo_id: z.string().nullable(),
    instructions: z.array(z.string()),
    instruction_codes: z.array(LocalisableSchema).openapi({
      description:
        "`instructions` as stable codes and figures, for a page in the reader's language (`text`: an English sentence without a code; `retake.rejected_at_review` and `retake.partner_asked` carry the person's own `reason`).",
    }),
    verification: AssignmentVerificationSchema.nullable(),
    delivered_at: z.string().nullable(),
    created_at: z.string(),
    review: z
      .object({
        held_at: z.string(),
        decision: z.enum(["approved", "rejected"]).nullable().openapi({ description: "null while it waits for your decision." }),
        reviewed_at: z.string().nullable(),
        photo_url: z.string().openapi({ description: "The original, signed for an hour (it is not delivered yet)." }),
        preview_url: z.string(),
      })
      .nullable()
      .openapi({
        description:
          "A photo its authenticity check held for review (`status: held_for_review`): decide with POST /orders/{id}/photos/{photo_id}/review. null for photos never held.",
      }),
  })
  .openapi("OrderAssignment");

export const DraftSchema = z
  .object({
    id: z.string().openapi({ example: "drf_06h0…" }),
    body: z.record(z.string(), z.unknown()).openapi({ description: "The create-order body so far (validated when it is priced or placed)." }),
    step: z.string().nullable(),
    version: z.number().int().openapi({ description: 'Send it back as If-Match: "<version>" to save over exactly this version.' }),
    order_id: z.string().nullable().openapi({ description: "The order placed from this draft, once there is one." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("OrderDraft");

export const DraftInputSchema = z
  .strictObject({
    body: z.record(z.string(), z.unknown()).openapi({ description: "A create-order body in progress (at most MAX_BODY_BYTES as JSON)." }),
    step: z.string().max(50).optional(),
    order_id: z.string().max(100).optional(),
  })
  .openapi("OrderDraftInput");

export const PlaceDraftSchema = z
  .strictObject({
    version: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .openapi({ description: "The draft version that was reviewed; 412 `draft_changed` when it has been saved since." }),
    payment_method: z.literal("card", { error: () => 'Use "card": the organisation\'s card on file.' }).openapi({ example: "card" }),
    payment_method_id: z.string().max(100).optional().openapi({ description: "Test mode only: charge this test payment method instead of the card on file." }),
  })
  .openapi("PlaceOrderDraft");

export const PlacedOrderSchema = z
  .object({
    order: OrderSchema,
    created: z.boolean().openapi({ description: "false when the draft had been placed before (a repeated request): its order is answered." }),
    payment: z
      .discriminatedUnion("status", [
        z.object({ status: z.literal("paid") }),
        z.object({
          status: z.literal("not_paid"),
          code: z.string().openapi({ description: "Why: `payment_failed`, `payment_action_required`, `plan_quota_exceeded`, `order_expired`, …" }),
          detail: z.string(),
        }),
      ])
      .openapi({
        description:
          "`paid`: the order is under way. `not_paid`: the order exists unpaid; confirm it again (`POST /orders/{id}/confirm`) once the reason is dealt with.",
      }),
  })
  .openapi("PlacedOrder");

export const DeliveredPhotoSchema = z
  .object({
    photo_id: z.string().openapi({ example: "img_06h0…" }),
    order_id: z.string(),
    mission_id: z.string(),
    location_id: z.string(),
    url: z.string().openapi({
      description:
        "Signed CDN URL of the original (EXIF preserved); for an organisation with privacy_blur, of a copy with faces blurred (EXIF copied, see `blurred`).",
    }),
    blurred: z
      .boolean()
      .optional()
      .openapi({ description: "true: `url` is the copy with faces blurred (the organisation's privacy_blur); metadata.sha256 stays the original's." }),
    thumbnail: z.string(),
    angle: AngleSchema,
    metadata: z.object({
      captured_at: z.string().nullable(),
      gps: z.object({ lat: z.number(), lng: z.number() }).nullable(),
      weather: z.object({ condition: z.string(), temp_c: z.number() }).nullable().openapi({
        description: "Conditions at the place and hour of capture from the weather service; null when it did not answer (see weather_unavailable_reason).",
      }),
      weather_unavailable_reason: z.string().optional(),
      device: z.string().nullable().optional(),
      direction_deg: z.number().nullable().optional().openapi({ description: "Compass direction of the camera from EXIF." }),
      sha256: z.string().optional().openapi({ description: "Of the original bytes, unchanged through delivery and export." }),
      device_evidence: DeviceEvidenceSchema.nullable()
        .optional()
        .openapi({ description: "What the zoomer's phone reported with the photo, beside its EXIF; null when the submission carried none." }),
    }),
    verification: z.object({
      status: z.literal("approved"),
      ai_checks: z.record(z.string(), z.object({ score: z.number(), passed: z.boolean() }).catchall(z.unknown())).openapi({
        description:
          "location_match, angle_match, time_of_day, quality, obstruction, minimum_crowd, brand_match, authenticity: each with score (0–1), passed, status (passed, failed, not_evaluated), the measured value, the threshold and a message. Not-evaluated checks are never passed.",
      }),
    }),
    evidence: z.string().openapi({
      description:
        "The signed verification record (compact JWS, EdDSA, `typ` photo-evidence+jwt, `kid` in /.well-known/jwks.json) over the photo id, the original's SHA-256, every check with value and threshold, positions and times. " +
        "Made once, at delivery, and kept: the same bytes here, in `photos.delivered`, at GET /orders/{id}/photos/{photo_id}/evidence and as evidence/{photo_id}.jws in the order's ZIP (beside evidence/jwks.json). " +
        "It keeps verifying after the service rotates its keys: retired keys stay in the JWKS.",
    }),
    provenance: z
      .object({
        c2pa_url: z.string().openapi({
          description:
            "Signed CDN URL (same access as `url`) of a C2PA-signed copy of the original: the original's bytes with a C2PA manifest (Ed25519, claim-signing certificate under the service's own root), " +
            "its hard binding and the assertion `com.photo-missions.verification` (this photo's evidence: the checks with values and thresholds, positions, times, and the JWS). The original itself is never altered.",
        }),
        trust_anchor_url: z.string().openapi({ description: "The service's C2PA root certificate (PEM, public): give it to a C2PA reader as a trust anchor." }),
      })
      .nullable()
      .openapi({ description: "The C2PA copy; null for a photo without one (a format other than JPEG, or delivered before copies were made)." }),
  })
  .openapi("DeliveredPhoto");

export const DeliverySecretSchema = z
  .object({
    exists: z.boolean(),
    created_at: z.string().nullable(),
    previous_secret_expires_at: z.string().nullable(),
  })
  .openapi("DeliverySecret");

export const DeliverySecretRevealSchema = DeliverySecretSchema.extend({
  secret: z.string().openapi({
    description:
      "`whsec_` + standard base64 (Standard Webhooks). Shown only in this response. Verify webhook-signature (their libraries, default mode) or X-SVC-Signature with it.",
  }),
}).openapi("DeliverySecretWithSecret");

export const OrderListQuerySchema = z.object({
  status: z
    .string()
    .max(300)
    .optional()
    .openapi({ description: `Comma-separated statuses (${ORDER_STATUSES.join(", ")}) or \`all\` (default).` }),
  client_reference: z.string().max(200).optional(),
  created_since: z.iso.datetime({ offset: true }).max(64).optional(),
});

// ----- the delivery promise after payment: free cancellation of a late location, the on-time report -----

export const CancelLocationSchema = z
  .strictObject({
    cycle_index: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .openapi({ description: "Recurring orders: which cycle's location (default: its latest dispatched one)." }),
    reason: z.string().max(500).optional(),
  })
  .openapi("CancelOrderLocation");

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** Most months one report covers. */
export const MAX_REPORT_MONTHS = 36;

const monthParam = (name: "from" | "to", description: string) =>
  z
    .string()
    .max(7)
    .regex(MONTH, { error: () => "Use a month as YYYY-MM." })
    .optional()
    .openapi({ param: { name, in: "query" }, description, example: name === "from" ? "2026-06" : "2026-11" });

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

export const OnTimeReportQuerySchema = z
  .object({
    from: monthParam("from", "First month (UTC), YYYY-MM; default: 11 months before `to`."),
    to: monthParam("to", "Last month (UTC), YYYY-MM, included; default: the current month."),
  })
  .superRefine((q, ctx) => {
    if (q.from === undefined || q.to === undefined) return;
    const span = monthIndex(q.to) - monthIndex(q.from) + 1;
    if (span < 1) ctx.addIssue({ code: "custom", path: ["to"], message: "`to` is a month at or after `from`." });
    else if (span > MAX_REPORT_MONTHS) ctx.addIssue({ code: "custom", path: ["to"], message: `A report covers at most ${MAX_REPORT_MONTHS} months.` });
  });

export const OnTimeMonthSchema = z
  .object({
    month: z.string().openapi({ example: "2026-11" }),
    locations_delivered: z
      .number()
      .int()
      .openapi({ description: "Locations (each location of each cycle) delivered this month (UTC), by the time of their delivery." }),
    delivered_on_time: z.number().int().openapi({ description: "Of those, delivered by their `deliver_by`." }),
    delivered_late: z.number().int().openapi({ description: "Of those, delivered after it (or after they had turned late)." }),
    on_time_share: z
      .number()
      .nullable()
      .openapi({ description: "delivered_on_time / locations_delivered, 0–1 rounded to 3 decimals; null in a month with no delivery.", example: 0.9 }),
  })
  .openapi("OnTimeMonth");

export const OnTimeReportSchema = z
  .object({ months: z.array(OnTimeMonthSchema).openapi({ description: "Every month from `from` to `to`, oldest first, months without deliveries included." }) })
  .openapi("OnTimeReport");

export type OnTimeReport = z.infer<typeof OnTimeReportSchema>;
