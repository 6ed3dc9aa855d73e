// Idempotency-Keys of the wizard's and the order page's writes, derived from what the request
// stands for rather than drawn at random, so a double click, a retried submit or a second tab
// sends the same key and the order interface answers the first request's result again.

/** Creating the order from exactly this version of the draft. */
export const createOrderKey = (draftId: string, version: number) => `dashboard:${draftId}:v${version}:create`;

/**
 * Confirming it: per draft version and per earlier charge attempts, so after a declined card a
 * new attempt gets a new key, while two clicks on the same attempt share one.
 */
export const confirmOrderKey = (draftId: string, version: number, chargeAttempts: number) => `dashboard:${draftId}:v${version}:confirm:${chargeAttempts}`;

/** Pause, resume or cancel the order as it was at `updatedAt`. */
export const changeOrderKey = (orderId: string, action: string, updatedAt: string) => `dashboard:${orderId}:${action}:${updatedAt}`;

/** Sending one delivered photo back (the API allows one retake request per photo). */
export const retakeKey = (orderId: string, photoId: string) => `dashboard:${orderId}:${photoId}:retake`;

/** Paying an order from its page (after a declined card): one key per earlier charge attempts. */
export const payOrderKey = (orderId: string, chargeAttempts: number) => `dashboard:${orderId}:pay:${chargeAttempts}`;
