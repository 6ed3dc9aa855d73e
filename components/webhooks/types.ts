// The webhook API's shapes as the browser receives them through the dashboard proxy (types only),
// and the words the page uses for each event.
import type { components } from "@/lib/api-client/openapi-types";
import type { WebhookEventType } from "@/lib/schemas/webhook";

export type Webhook = components["schemas"]["Webhook"];
export type Delivery = components["schemas"]["Delivery"];
export type DeliveryAttempt = components["schemas"]["DeliveryAttempt"];
export type DeliveryPage = components["schemas"]["DeliveryList"];

/**
 * Kept here rather than imported from lib/schemas/webhook so the browser bundle does not pull in
 * the OpenAPI zod build; `satisfies` fails the type check when an event is added there.
 */
export const EVENT_DESCRIPTIONS = {
  "mission.created": "A mission was created",
  "mission.completed": "A mission reached its number of approved photos",
  "submission.received": "A contributor submitted photos",
  "submission.approved": "A submission passed quality checks",
  "submission.rejected": "A submission failed quality checks, with the reasons",
  "order.confirmed": "An order was confirmed and paid",
  "order.payment_failed": "An order's payment was declined",
  "order.payment_action_required": "An order's card needs authentication",
  "order.mission.assigned": "An order dispatched a mission for a location",
  "order.cycle.skipped": "A recurring order skipped a cycle, with the reason",
  "order.paused": "A recurring order was paused",
  "order.resumed": "A recurring order was resumed",
  "order.cancelled": "An order was cancelled",
  "order.ended": "A recurring order ended",
  "order.expired": "An unconfirmed order expired",
  "order.refunded": "Money was refunded for an order",
  "order.assignment.assigned": "A contributor took an order task",
  "order.assignment.completed": "An order task's photo was verified",
  "order.assignment.late": "An order task missed its deadline and was offered again",
  "order.assignment.retake": "A photo failed verification and a retake was opened",
  "order.photo.verified": "An order photo passed verification",
  "order.photo.rejected": "An order photo failed verification, with the checks",
  "order.location.failed": "A location was given up after its retakes (refunded)",
  "order.location.skipped": "A location was left out of a cycle: extreme weather forecast (not charged)",
  "order.mission.completed": "Every photo of an order's location was delivered",
  "photos.delivered": "Verified photos of a location, in the delivered-photo record",
  "order.fulfilled": "Every location of an order was delivered",
  "order.partially_fulfilled": "An order ended with some locations given up",
} as const satisfies Record<WebhookEventType, string>;

export const EVENT_TYPES = Object.keys(EVENT_DESCRIPTIONS) as WebhookEventType[];
