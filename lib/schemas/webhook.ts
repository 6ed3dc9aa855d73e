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
  "order.location.failed",
  "order.location.skipped",
  "order.mission.completed",
  "photos.delivered",
  "order.fulfilled",
  "order.partially_fulfilled",
] as const;
export const WEBHOOK_EVENTS = [...MISSION_EVENTS, ...ORDER_EVENTS] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** Sent only by "send a test event", whatever the endpoint subscribes to. */
export const TEST_EVENT = "webhook.test";

export const WebhookEventsSchema = z
  .array(z.enum([...WEBHOOK_EVENTS, "*"]))
  .min(1)
  .max(WEBHOOK_EVENTS.length + 1, "List each event type at most once.")
  .openapi({ description: 'Event types to receive; ["*"] (the default) is every event, including ones added later.', example: ["submission.approved", "submission.rejected"] });

const url = z.string().max(2048).openapi({ description: "http(s) URL that receives POSTs. Private, loopback and link-local targets are refused.", example: "https://partner.example/hooks/photo-missions" });

export const CreateWebhookSchema = z
  .strictObject({ url, events: WebhookEventsSchema.optional(), description: z.string().max(500).optional() })
  .openapi("CreateWebhook");

export const UpdateWebhookSchema = z
  .strictObject({ url: url.optional(), events: WebhookEventsSchema.optional(), description: z.string().max(500).nullable().optional(), enabled: z.boolean().optional() })
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
    previous_secret_expires_at: z.string().nullable().openapi({ description: "While set, requests are also signed with the previous secret (X-SVC-Signature-Previous)." }),
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
  .object({ ...received, status: z.literal("rejected"), decided_at: z.string(), reasons: z.array(z.string()).openapi({ example: ["Sharpness 12.3 is below 40: the photo is blurry."] }) })
  .openapi("SubmissionRejectedData");
export const TestEventDataSchema = z.object({ webhook_id: z.string(), message: z.string() }).openapi("TestEventData");
