// The events we POST to webhook endpoints, in the OpenAPI 3.1 `webhooks` section: envelope,
// headers and each event's data.
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { MissionSchema } from "@/lib/schemas/mission";
import { DeliveredPhotoSchema } from "@/lib/schemas/order";
import {
  OrderPromiseEventDataSchema,
  PhotoHeldForReviewDataSchema,
  SubmissionApprovedDataSchema,
  SubmissionReceivedDataSchema,
  SubmissionRejectedDataSchema,
  TestEventDataSchema,
  ORDER_EVENTS,
} from "@/lib/schemas/webhook";
import type { AppEnv } from "./types";

const headers = z.object({
  "x-svc-signature": z
    .string()
    .openapi({ description: "Hex HMAC-SHA256 of the raw body, keyed with the endpoint secret's characters as shown. Compare in constant time." }),
  "x-svc-signature-previous": z.string().optional().openapi({ description: "The same with the previous secret, during the grace period after a rotation." }),
  "x-svc-event-id": z.string().openapi({ description: "The event id: the same on every attempt — use it to deduplicate." }),
  "x-svc-event": z.string(),
  "x-svc-timestamp": z.string().openapi({ description: "Unix time (s) of this attempt." }),
  "x-svc-delivery-id": z.string(),
  "x-svc-attempt": z.string().openapi({ description: "1 for the first attempt, then 2, 3…" }),
  "webhook-id": z.string().openapi({ description: "Standard Webhooks: the event id (as X-SVC-Event-Id)." }),
  "webhook-timestamp": z.string().openapi({ description: "Standard Webhooks: Unix time (s) of this attempt." }),
  "webhook-signature": z.string().openapi({
    description:
      "Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the bytes the secret's base64 (after `whsec_`) decodes to, so the official `standardwebhooks` libraries verify it in their default mode with the secret as shown. A secret issued before this rule (base64url, or `odsec_…`) keys it with its characters (their libraries' raw format) until it is rotated. Space-separated signatures during a rotation's grace period.",
  }),
});

const envelope = (event: string, data: z.ZodType, name: string) =>
  z
    .object({
      id: z.string().openapi({ description: "Event id (evt_…), equal to X-SVC-Event-Id.", example: "evt_06h0…" }),
      event: z.literal(event),
      timestamp: z.string().openapi({ description: "When the event happened (ISO 8601 UTC)." }),
      data,
    })
    .openapi(name);

const EVENTS = [
  { event: "mission.created", summary: "A mission was created", data: z.object({ mission: MissionSchema }), name: "MissionCreatedEvent" },
  { event: "mission.completed", summary: "Approved images reached required_images", data: z.object({ mission: MissionSchema }), name: "MissionCompletedEvent" },
  {
    event: "submission.received",
    summary: "A zoomer submitted photos (the spec's data, exactly)",
    data: SubmissionReceivedDataSchema,
    name: "SubmissionReceivedEvent",
  },
  { event: "submission.approved", summary: "A submission passed QA", data: SubmissionApprovedDataSchema, name: "SubmissionApprovedEvent" },
  { event: "submission.rejected", summary: "A submission failed QA, with reasons", data: SubmissionRejectedDataSchema, name: "SubmissionRejectedEvent" },
  { event: "webhook.test", summary: "Sent by “send a test event”", data: TestEventDataSchema, name: "TestEvent" },
  {
    event: "photos.delivered",
    summary: "Verified photos of an order's location (the spec's Delivered photo record); to the order's delivery URL and subscribed endpoints",
    data: z.object({
      order_id: z.string(),
      mission_id: z.string(),
      location_id: z.string(),
      cycle_index: z.number().int(),
      photos: z.array(DeliveredPhotoSchema),
    }),
    name: "PhotosDeliveredEvent",
  },
  {
    event: "photo.held_for_review",
    summary:
      "An order photo failed its authenticity check and waits for your review (never delivered on its own); to the order's delivery URL and subscribed endpoints",
    data: PhotoHeldForReviewDataSchema,
    name: "PhotoHeldForReviewEvent",
  },
  {
    event: "order.at_risk",
    summary:
      "Locations of an order turned at risk: their task was left untaken past its expected take time and is escalated (each location once); to the order's delivery URL and subscribed endpoints",
    data: OrderPromiseEventDataSchema,
    name: "OrderAtRiskEvent",
  },
  {
    event: "order.late",
    summary:
      "Locations of an order passed their deliver_by undelivered (each location once); they may now be cancelled free of charge; to the order's delivery URL and subscribed endpoints",
    data: OrderPromiseEventDataSchema,
    name: "OrderLateEvent",
  },
  ...ORDER_EVENTS.filter((e) => e !== "photos.delivered" && e !== "photo.held_for_review" && e !== "order.at_risk" && e !== "order.late").map((event) => ({
    event,
    summary: `Order event ${event}; to the order's delivery URL (signed with the order-delivery secret) and subscribed endpoints`,
    data: z.object({ order_id: z.string() }).catchall(z.unknown()),
    name: `${event
      .split(/[._]/)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join("")}Event`,
  })),
] as const;

export function registerWebhookEvents(app: OpenAPIHono<AppEnv>) {
  for (const { event, summary, data, name } of EVENTS) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: event,
      // onMissionCreated, onPhotosDelivered, …: what a receiver's handler for the event is called.
      operationId: `on${event
        .split(/[._]/)
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join("")}`,
      tags: ["Webhooks"],
      summary,
      description:
        "POSTed to each enabled endpoint subscribed to this event. Any 2xx within 10 s is success; anything else (redirects included: they are not followed) is retried with backoff over about three days; 410 disables the endpoint.",
      request: { headers, body: { content: { "application/json": { schema: envelope(event, data, name) } } } },
      responses: { 200: { description: "Any 2xx acknowledges the delivery." }, 410: { description: "Gone: the endpoint is disabled." } },
    });
  }
}
