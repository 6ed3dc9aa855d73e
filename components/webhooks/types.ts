// The webhook API's shapes as the browser receives them through the dashboard proxy (types only),
// and the events the form offers.
import type { components } from "@/lib/api-client/openapi-types";
import type { WebhookEventType } from "@/lib/schemas/webhook";

export type Webhook = components["schemas"]["Webhook"];
export type Delivery = components["schemas"]["Delivery"];
export type DeliveryAttempt = components["schemas"]["DeliveryAttempt"];
export type DeliveryPage = components["schemas"]["DeliveryList"];

/**
 * The events an endpoint can subscribe to, in the order the form lists them (their descriptions:
 * messages/<locale>/webhooks.json, `event.<type>`). Kept here rather than imported from
 * lib/schemas/webhook so the browser bundle does not pull in the OpenAPI zod build; `satisfies`
 * fails the type check when an event is added there.
 */
const EVENTS = {
  "mission.created": true,
  "mission.completed": true,
  "submission.received": true,
  "submission.approved": true,
  "submission.rejected": true,
  "order.confirmed": true,
  "order.payment_failed": true,
  "order.payment_action_required": true,
  "order.mission.assigned": true,
  "order.cycle.skipped": true,
  "order.paused": true,
  "order.resumed": true,
  "order.cancelled": true,
  "order.ended": true,
  "order.expired": true,
  "order.refunded": true,
  "order.assignment.assigned": true,
  "order.assignment.completed": true,
  "order.assignment.late": true,
  "order.assignment.retake": true,
  "order.photo.verified": true,
  "order.photo.rejected": true,
  "photo.held_for_review": true,
  "order.location.failed": true,
  "order.location.skipped": true,
  "order.mission.completed": true,
  "photos.delivered": true,
  "order.fulfilled": true,
  "order.partially_fulfilled": true,
  "order.at_risk": true,
  "order.late": true,
} as const satisfies Record<WebhookEventType, true>;

export const EVENT_TYPES = Object.keys(EVENTS) as WebhookEventType[];
