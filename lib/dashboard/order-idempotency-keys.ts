// Idempotency-Keys of the wizard's and the order page's writes, derived from what the request
// stands for rather than drawn at random, so a double click, a retried submit or a second tab
// sends the same key and the order interface answers the first request's result again.

/**
 * Placing the draft's order: per draft version and per attempt the page makes (a new key after a
 * refusal), so two clicks on one attempt share a key, while the service itself makes one order per
 * draft and one charge per attempt whatever the keys.
 */
export const placeOrderKey = (draftId: string, version: number, attempt: string) => `dashboard:${draftId}:v${version}:place:${attempt}`;

/** Pause, resume or cancel the order as it was at `updatedAt`. */
export const changeOrderKey = (orderId: string, action: string, updatedAt: string) => `dashboard:${orderId}:${action}:${updatedAt}`;

/** Sending one delivered photo back (the API allows one retake request per photo). */
export const retakeKey = (orderId: string, photoId: string) => `dashboard:${orderId}:${photoId}:retake`;

/** Paying an order from its page (after a declined card): one key per earlier charge attempts. */
export const payOrderKey = (orderId: string, chargeAttempts: number) => `dashboard:${orderId}:pay:${chargeAttempts}`;

/** Deciding one held photo (it can be decided once). */
export const reviewKey = (orderId: string, photoId: string) => `dashboard:${orderId}:${photoId}:review`;

/** Cancelling one late location free of charge (the service refunds it once whatever the keys). */
export const cancelLocationKey = (orderId: string, locationId: string, cycleIndex: number) => `dashboard:${orderId}:${locationId}:${cycleIndex}:cancel-late`;
