// Webhook endpoints, deliveries and the events they carry.
import { z } from "@hono/zod-openapi";

export const MISSION_EVENTS = ["mission.created", "mission.completed", "submission.received", "submission.approved", "submission.rejected"] as const;
/** Events of the order interface: sent to the order's `delivery.webhook_url` and to endpoints that subscribe. */
export const ORDER_EVENTS = [
  "order.confirmed",
  "order.payment_failed",
  "order.payment_action_required",
  "order.mission.assigned",
  "order.cycle.skipped",
  "order.paused",
  "order.resumed",
  "order.cancelled",
  "order.ended",
  "order.expired",
  "order.refunded",
  "order.assignment.assigned",
  "order.assignment.completed",
  "order.assignment.late",
  "order.assignment.retake",
  "order.photo.verified",
  "order.photo.rejected",
  "photo.held_for_review",
  "order.location.failed",
  "order.location.skipped",
  "order.mission.completed",
  "photos.delivered",
  "order.fulfilled",
  "order.partially_fulfilled",
  "order.at_risk",
  "order.late",
] as const;
export const WEBHOOK_EVENTS = [...MISSION_EVENTS, ...ORDER_EVENTS] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** Sent only by "send a test event", whatever the endpoint subscribes to. */
export const TEST_EVENT = "webhook.test";

export const WebhookEventsSchema = z
  .array(z.enum([...WEBHOOK_EVENTS, "*"]))
  .min(1)
  .max(WEBHOOK_EVENTS.length + 1, "List each event type at most once.")
  .openapi({
    description: 'Event types to receive; ["*"] (the default) is every event, including ones added later.',
    example: ["submission.approved", "submission.rejected"],
  });

const url = z.string().max(2048).openapi({
  description: "http(s) URL that receives POSTs. Private, loopback and link-local targets are refused.",
  example: "https://partner.example/hooks/photo-missions",
});

export const CreateWebhookSchema = z
  .strictObject({ url, events: WebhookEventsSchema.optional(), description: z.string().max(500).optional() })
  .openapi("CreateWebhook");

export const UpdateWebhookSchema = z
  .strictObject({
    url: url.optional(),
    events: WebhookEventsSchema.optional(),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: "Send at least one field to change." })
  .openapi("UpdateWebhook", { minProperties: 1 });

export const WebhookSchema = z
  .object({
    id: z.string().openapi({ example: "wh_06h0…" }),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().openapi({ description: "Why the service disabled it (410 Gone, failing for days), or null." }),
    failing_since: z.string().nullable().openapi({ description: "Start of the current run of failed attempts, if any." }),
    consecutive_failures: z.number().int(),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .openapi({ description: "While set, requests are also signed with the previous secret (X-SVC-Signature-Previous)." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Webhook");

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({
    description:
      "Signing secret: `whsec_` + standard base64 of 32 random bytes (Standard Webhooks; pass it as is to their libraries). Shown only in this response (and on rotation): store it now.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/x9x0Zt/BI=",
  }),
}).openapi("WebhookWithSecret");

export const DeliveryAttemptSchema = z
  .object({
    id: z.string(),
    attempt: z.number().int(),
    started_at: z.string(),
    duration_ms: z.number().int().nullable(),
    status_code: z.number().int().nullable(),
    response_snippet: z.string().nullable().openapi({ description: "The first 512 characters of the response body." }),
    error: z.string().nullable().openapi({ description: "Why no response was received (timeout, connection refused, refused target…)." }),
  })
  .openapi("DeliveryAttempt");

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: "dlv_06h0…" }),
    webhook_id: z.string(),
    event_id: z.string(),
    event: z.string(),
    status: z.enum(["pending", "delivering", "succeeded", "failed"]),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    attempts: z.array(DeliveryAttemptSchema),
  })
  .openapi("Delivery");

export type Delivery = z.infer<typeof DeliverySchema>;
export type Webhook = z.infer<typeof WebhookSchema>;

// Event payloads, as documented in the OpenAPI document's `webhooks` section.
const received = {
  submission_id: z.string().openapi({ example: "sub_06h0…" }),
  mission_id: z.string(),
  zoomer_id: z.string().openapi({ example: "usr_06h0…" }),
  image_count: z.number().int(),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable().openapi({ description: "GPS of the first photo that has one; null when none has." }),
};

export const SubmissionReceivedDataSchema = z.object(received).openapi("SubmissionReceivedData");
export const SubmissionApprovedDataSchema = z
  .object({
    ...received,
    status: z.literal("approved"),
    decided_at: z.string(),
    images: z.array(
      z.object({
        id: z.string(),
        sha256: z.string(),
        byte_size: z.number().int(),
        url: z.string().openapi({ description: "Signed CDN URL of the original, valid 4 days (longer than the retry schedule)." }),
        thumbnail_url: z.string().nullable(),
      }),
    ),
  })
  .openapi("SubmissionApprovedData");
export const SubmissionRejectedDataSchema = z
  .object({
    ...received,
    status: z.literal("rejected"),
    decided_at: z.string(),
    reasons: z.array(z.string()).openapi({ example: ["Sharpness 12.3 is below 40: the photo is blurry."] }),
  })
  .openapi("SubmissionRejectedData");
/** One authenticity signal that failed, as `photo.held_for_review` carries it. */
export const HeldSignalSchema = z
  .object({
    signal: z.enum(["device_position", "edit_traces", "capture_time", "seen_elsewhere"]).openapi({
      description:
        "device_position: the phone's own position far from the photo's GPS; edit_traces: the file shows signs of editing; capture_time: taken long before it was sent (or in the future); seen_elsewhere: the same picture was sent before.",
    }),
    code: z.string().openapi({
      description: "The finding as a stable code (e.g. `device_position.far`, `edit_traces.found`, `capture_time.too_old`, `seen_elsewhere.seen`).",
      example: "edit_traces.found",
    }),
    params: z.record(z.string(), z.union([z.string(), z.number()])).openapi({
      description: "The figures of the finding, by name (e.g. `distance_m`, `traces`, `editor`).",
      example: { traces: "editor", editor: "Windows Photo Gallery (“Microsoft Windows Photo Gallery 6.0.6001.18000”)" },
    }),
    message: z.string().openapi({ description: "The finding in plain English.", example: "Signs of editing: the file was written by Windows Photo Gallery." }),
  })
  .openapi("HeldSignal");

export const PhotoHeldForReviewDataSchema = z
  .object({
    order_id: z.string().openapi({ example: "ord_06h0…" }),
    mission_id: z.string(),
    location_id: z.string().openapi({ description: "The order location's id (yours, from the order)." }),
    location_name: z.string(),
    cycle_index: z.number().int().openapi({ description: "The recurring order's cycle (0 for a one-off order)." }),
    assignment_id: z.string(),
    angle: z.string(),
    attempt: z.number().int().openapi({ description: "0 for the first photo of this angle, then 1, 2, 3 for retakes." }),
    photo_id: z.string().openapi({ example: "img_06h0…" }),
    held_at: z.string().openapi({ description: "When it was held (ISO 8601 UTC)." }),
    failed_signals: z.array(HeldSignalSchema).min(1).openapi({ description: "Why: each authenticity signal that failed." }),
  })
  .openapi("PhotoHeldForReviewData", {
    description:
      "A photo whose authenticity check failed is held: neither delivered nor retaken until someone decides. Approve or reject it with POST /orders/{order_id}/photos/{photo_id}/review (orders:write); `order.photo.verified` or `order.photo.rejected` follows.",
  });
export type PhotoHeldForReviewData = z.infer<typeof PhotoHeldForReviewDataSchema>;

export const TestEventDataSchema = z.object({ webhook_id: z.string(), message: z.string() }).openapi("TestEventData");

const promiseLocation = z.object({
  location_id: z.string(),
  name: z.string(),
  cycle_index: z.number().int(),
  deliver_by: z.string(),
  expected_take_by: z.string(),
  delivery_status: z.enum(["on_track", "at_risk", "late", "delivered_on_time", "delivered_late"]),
  escalated: z.boolean(),
});

/**
 * `order.at_risk` and `order.late`: the locations that turned at risk (their task untaken past its
 * expected take time, now escalated) or late (past deliver_by) in one run of the sweep. Each
 * location of each cycle is in at most one `order.at_risk` and one `order.late`, ever; a one-location
 * order gets each event once.
 */
export const OrderPromiseEventDataSchema = z
  .object({
    order_id: z.string(),
    client_reference: z.string().nullable(),
    delivery_status: z
      .enum(["on_track", "at_risk", "late", "delivered_on_time", "delivered_late"])
      .openapi({ description: "The order's delivery_status after this change." }),
    locations: z
      .array(promiseLocation)
      .openapi({ description: "The locations that turned at_risk (order.at_risk) or late (order.late) now; others are reported when they turn." }),
  })
  .openapi("OrderPromiseEventData");
