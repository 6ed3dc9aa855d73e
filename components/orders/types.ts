// The order interface's shapes as the dashboard receives them (types only, from the generated
// OpenAPI types), and the words the order pages use for categories, angles and requirements.
// Kept here rather than imported from lib/schemas/order so browser bundles do not pull in the
// OpenAPI zod build; each `satisfies` fails the type check when the schema's list changes.
import type { components } from "@/lib/api-client/openapi-types";
import type { Angle, Category, CROWD_LEVELS, TimeOfDay } from "@/lib/schemas/order";

export type Recurring = components["schemas"]["Recurring"];
/** The generated type says `Recurring & (Record<string, never> | null)` for a nullable reference; this is what it means. */
export type Order = Omit<components["schemas"]["Order"], "recurring"> & { recurring: Recurring | null };
export type OrderStatus = components["schemas"]["OrderStatus"];
export type Quote = components["schemas"]["Quote"];
/** A quote before the order exists: the quote, and a recurring order's next cycles as they would fall if confirmed now. */
export type QuotePreview = components["schemas"]["QuotePreview"];
export type OrderSchedule = components["schemas"]["OrderSchedule"];
export type DeliveredPhoto = components["schemas"]["DeliveredPhoto"];
export type OrderAssignment = components["schemas"]["OrderAssignment"];
export type OrderDraft = components["schemas"]["OrderDraft"];
export type DeliverySecret = components["schemas"]["DeliverySecret"];
export type { Angle, Category, TimeOfDay };
export type CrowdLevel = (typeof CROWD_LEVELS)[number];

/** How long a retake reason may be (the API's RequestRetake schema). */
export const RETAKE_REASON_MIN = 3;
export const RETAKE_REASON_MAX = 500;

/** The most locations one order may have (MAX_LOCATIONS in lib/schemas/order). */
export const MAX_LOCATIONS = 500;
/** From here on the locations step warns that the limit is near. */
export const LOCATIONS_WARNING_AT = 450;

export const CATEGORY_LABELS = {
  cultural_exterior: "Cultural site, outside",
  restaurant_ambiance: "Restaurant ambiance",
  beach_facility_status: "Beach facilities",
  retail_compliance: "Retail compliance",
  event_venue_status: "Event venue",
} as const satisfies Record<Category, string>;

export const CATEGORY_DESCRIPTIONS = {
  cultural_exterior: "Façades, monuments and entrances of museums, churches and landmarks.",
  restaurant_ambiance: "How a restaurant looks to a guest: the room, the terrace, how busy it is.",
  beach_facility_status: "Flags, showers, loungers and the state of a beach's facilities.",
  retail_compliance: "Shop windows, signage and promotional displays as they are in the street.",
  event_venue_status: "Queues, parking and the surroundings of a venue on event days.",
} as const satisfies Record<Category, string>;

export const CATEGORIES = Object.keys(CATEGORY_LABELS) as Category[];

/** Angles that usually suit a category, offered first (any angle may be ordered). */
export const SUGGESTED_ANGLES = {
  cultural_exterior: ["front", "entrance", "overview"],
  restaurant_ambiance: ["interior", "outdoor_seating", "entrance"],
  beach_facility_status: ["water_quality_flag", "facilities", "overview"],
  retail_compliance: ["storefront", "promotional_display", "entrance"],
  event_venue_status: ["entrance_queue", "parking_lot", "overview"],
} as const satisfies Record<Category, readonly Angle[]>;

/** The order-wide requirements a category uses (the analyser checks them when one is configured). */
export const CATEGORY_REQUIREMENTS = {
  cultural_exterior: [],
  restaurant_ambiance: ["minimum_crowd"],
  beach_facility_status: ["minimum_crowd"],
  retail_compliance: ["brand_match"],
  event_venue_status: ["minimum_crowd", "brand_match"],
} as const satisfies Record<Category, readonly ("minimum_crowd" | "brand_match")[]>;

/** ANGLE_DESCRIPTIONS of lib/schemas/order, word for word. */
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

export const ANGLES = Object.keys(ANGLE_DESCRIPTIONS) as Angle[];

export const ANGLE_LABELS = {
  front: "Front",
  entrance: "Entrance",
  interior: "Interior",
  outdoor_seating: "Outdoor seating",
  overview: "Overview",
  water_quality_flag: "Water-quality flag",
  facilities: "Facilities",
  storefront: "Storefront",
  promotional_display: "Promotional display",
  entrance_queue: "Entrance queue",
  parking_lot: "Parking lot",
} as const satisfies Record<Angle, string>;

export const TIME_OF_DAY_LABELS = {
  daylight: "Daylight — any time the sun is up",
  midday: "Midday — within 2 hours of solar noon (+10 %)",
  evening: "Evening — from 1 hour before sunset to 2 hours after (+25 %)",
} as const satisfies Record<TimeOfDay, string>;

export const CROWD_LABELS = {
  low: "Low — a few people",
  moderate: "Moderate — clearly in use",
  high: "High — busy",
} as const satisfies Record<CrowdLevel, string>;

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

export const STATUS_LABELS = {
  pending_confirmation: "Awaiting confirmation",
  payment_failed: "Payment failed",
  payment_action_required: "Card needs authentication",
  confirmed: "Confirmed",
  in_progress: "In progress",
  active: "Active (recurring)",
  paused: "Paused",
  fulfilled: "Fulfilled",
  partially_fulfilled: "Partly fulfilled",
  cancelled: "Cancelled",
  ended: "Ended",
  expired: "Expired",
} as const satisfies Record<OrderStatus, string>;
