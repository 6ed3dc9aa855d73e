// An order's delivery URL is a target we POST to: the same SSRF check as a webhook endpoint's, at
// quote and at create alike (one function, so the two cannot drift apart).
import type { CreateOrderInput } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { checkedUrl } from "@/lib/service/webhooks/endpoints";

/** The body's `delivery.webhook_url`, normalised, or null when there is none; an unsafe one is a 422 at `/delivery/webhook_url`. */
export async function checkedDeliveryUrl(ctx: ServiceContext, input: Pick<CreateOrderInput, "delivery">): Promise<string | null> {
  const url = input.delivery?.webhook_url;
  return url ? checkedUrl(ctx, url, "/delivery/webhook_url") : null;
}
