// The order concept's words: categories, angles, times of day, crowd levels and statuses. Plain
// constants, no dependencies: the service's schemas (lib/schemas/order), the database schema and
// the dashboard's order pages all import them from here, so a new angle or status is added in one
// place. Their names for people are in the message catalogues (messages/<locale>/*.json).

/** The spec's categories ("values seen"); the complete list of this service. */
export const CATEGORIES = ["cultural_exterior", "restaurant_ambiance", "beach_facility_status", "retail_compliance", "event_venue_status"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The spec's angles: what a photo shows. Missions' submissions and orders share the list. */
export const ANGLES = [
  "front",
  "entrance",
  "interior",
  "outdoor_seating",
  "overview",
  "water_quality_flag",
  "facilities",
  "storefront",
  "promotional_display",
  "entrance_queue",
  "parking_lot",
] as const;
export type Angle = (typeof ANGLES)[number];

/** What the zoomer is asked to shoot for each angle. */
export const ANGLE_DESCRIPTIONS = {
  front: "The whole front of the place, square on, from across the street.",
  entrance: "The entrance, facing it, doors and signage readable.",
  interior: "Inside, a wide view of the main room.",
  outdoor_seating: "The outdoor seating area, as a guest arriving sees it.",
  overview: "A wide view that shows the place in its surroundings.",
  water_quality_flag: "The beach's water-quality flag or notice board, readable.",
  facilities: "Showers, toilets, loungers or other facilities, as they are.",
  storefront: "The shop window and sign, facing it.",
  promotional_display: "The promotional display or stand, its content readable.",
  entrance_queue: "The queue at the entrance, showing how long it is.",
  parking_lot: "The car park, showing how full it is.",
} as const satisfies Record<Angle, string>;

/** Angles that usually suit a category, offered first (any angle may be ordered). */
export const SUGGESTED_ANGLES = {
  cultural_exterior: ["front", "entrance", "overview"],
  restaurant_ambiance: ["interior", "outdoor_seating", "entrance"],
  beach_facility_status: ["water_quality_flag", "facilities", "overview"],
  retail_compliance: ["storefront", "promotional_display", "entrance"],
  event_venue_status: ["entrance_queue", "parking_lot", "overview"],
} as const satisfies Record<Category, readonly Angle[]>;

/** The order-wide requirements a category uses. */
export const CATEGORY_REQUIREMENTS = {
  cultural_exterior: [],
  restaurant_ambiance: ["minimum_crowd"],
  beach_facility_status: ["minimum_crowd"],
  retail_compliance: ["brand_match"],
  event_venue_status: ["minimum_crowd", "brand_match"],
} as const satisfies Record<Category, readonly ("minimum_crowd" | "brand_match")[]>;

export const TIMES_OF_DAY = ["daylight", "midday", "evening"] as const;
export type TimeOfDay = (typeof TIMES_OF_DAY)[number];

export const CROWD_LEVELS = ["low", "moderate", "high"] as const;
export type CrowdLevel = (typeof CROWD_LEVELS)[number];

export const CROWD_LABELS = {
  low: "Low — a few people",
  moderate: "Moderate — clearly in use",
  high: "High — busy",
} as const satisfies Record<CrowdLevel, string>;

export const ORDER_STATUSES = [
  "pending_confirmation",
  "payment_action_required",
  "payment_failed",
  "confirmed",
  "in_progress",
  "fulfilled",
  "partially_fulfilled",
  "active",
  "paused",
  "ended",
  "cancelled",
  "expired",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Statuses in which an order can be paid (confirm, or pay again after a declined card). */
export const PAYABLE_STATUSES = ["pending_confirmation", "payment_failed"] as const satisfies readonly OrderStatus[];

export const PAYMENT_STATUSES = ["requires_action", "processing", "succeeded", "failed", "canceled"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Where a dispatched location stands against its promise (`deliver_by`): open — `on_track`,
 * `at_risk` (its task was left untaken past its expected take time and was escalated), `late`
 * (deliver_by passed) — or delivered, on time or late. An order's is its worst open location's,
 * and once none is open, `delivered_late` if any was.
 */
export const DELIVERY_STATUSES = ["on_track", "at_risk", "late", "delivered_on_time", "delivered_late"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
