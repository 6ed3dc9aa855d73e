// An order's quote as stored: orders created before quotes stated a delivery estimate and promise
// keep quotes without them, which read as "none stated".
import type { Quote } from "@/lib/schemas/order";

export function storedQuote(quote: Quote): Quote {
  return {
    ...quote,
    delivery_estimate: quote.delivery_estimate ?? null,
    delivery_estimate_reasons: quote.delivery_estimate_reasons ?? [],
    delivery_promise: quote.delivery_promise ?? null,
  };
}
