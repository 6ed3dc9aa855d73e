// POST /delivery-test: one signed `order.delivery.test` event to a URL a partner is about to give
// an order, sent now and answered with what the receiver said — so the wizard's "Send a test"
// shows a wrong URL or a failing signature check before the order exists. The URL passes the same
// SSRF guard as delivery URLs; the request is signed with the organisation's order-delivery secret
// exactly as real deliveries are (X-SVC-Signature and Standard Webhooks headers), with a short
// timeout and no redirects. Nothing is stored: it is not an event of any order.
import { createId } from "@/lib/ids/create-id";
import { ORDERS_BASE_PATH, type ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { executeWebhookCall } from "@/lib/service/webhooks/execute-webhook-call";
import { checkedUrl } from "@/lib/service/webhooks/endpoints";
import { orderDeliverySecrets } from "./delivery-secret";

/** A person is waiting for the answer beside the field. */
export const DELIVERY_TEST_TIMEOUT_MS = 5_000;

export interface TestDeliveryUrlOptions {
  orgId: string;
  url: string;
  now?: Date;
}

export async function testDeliveryUrl(ctx: ServiceContext, { orgId, url, now = new Date() }: TestDeliveryUrlOptions) {
  const checked = await checkedUrl(ctx, url, "/url");
  const secrets = await orderDeliverySecrets(ctx, orgId, now);
  if (!secrets) {
    throw new ApiError(
      409,
      "delivery_secret_missing",
      `Create the organisation's order-delivery secret first (POST ${ORDERS_BASE_PATH}/delivery-secret): it signs the test as it signs deliveries.`,
      {
        errors: [{ pointer: "/url", in: "body", message: "No order-delivery secret to sign the test with yet." }],
      },
    );
  }
  const eventId = createId("event", now.getTime());
  const payload = JSON.stringify({
    id: eventId,
    type: "order.delivery.test",
    created_at: now.toISOString(),
    data: { message: "A test from Photo Missions. Verify its signature as you would a delivery's; nothing was ordered." },
  });
  const result = await executeWebhookCall(
    {
      url: checked,
      payload,
      eventId,
      eventType: "order.delivery.test",
      deliveryId: createId("delivery", now.getTime()),
      attempt: 1,
      secret: secrets.secret,
      previousSecret: secrets.previousSecret,
    },
    { timeoutMs: Math.min(DELIVERY_TEST_TIMEOUT_MS, ctx.config.webhooks.timeoutMs), allowPrivate: ctx.config.webhooks.allowPrivateTargets },
  );
  return {
    url: checked,
    event_id: eventId,
    ok: result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300,
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    error: result.error,
    response_snippet: result.snippet,
  };
}
