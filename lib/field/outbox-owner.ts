// Whose photo an outbox entry is. Every photo on the phone records the zoomer who took it
// (`owner`, their `usr_…` id); every request that sends one carries that owner in
// `X-Outbox-Owner`, and the field routes' server side (lib/field-server/session.ts `fieldFetch`) refuses
// one whose owner is not the signed-in zoomer, before anything reaches the service. So a photo
// left on a shared phone by one zoomer never goes out under the next one's session.

/** The signed-in zoomer as the page needs it: whose photos to send and show, and until when. */
export interface FieldSession {
  /** The zoomer's `usr_…` id (the client's id for a token without one). */
  zoomerId: string;
  /** The zoomer's name (token claim `zoomer_name`), so others on the phone see whose photos wait; null when the token has none. */
  zoomerName: string | null;
  /** When the session cookie ends (ISO 8601): after that the page asks its owner to sign in again. */
  expiresAt: string;
}

/** The request header naming the zoomer an outbox photo belongs to. */
export const OUTBOX_OWNER_HEADER = "X-Outbox-Owner";

/** The problem code of a send whose owner is not the session's zoomer (409). */
export const OUTBOX_OWNER_MISMATCH = "outbox_owner_mismatch";

/**
 * Whether a request to the service (its path, as fieldFetch receives it) sends a photo: a tus
 * upload (every request of it: creation, HEAD, PATCH, DELETE), a multipart submission to a mission,
 * or a task's photo.
 */
export function sendsPhoto(path: string): boolean {
  const pathname = path.split("?")[0] ?? "";
  return /^\/api\/v1\/(field\/uploads(\/[^/]+)?|missions\/[^/]+\/submissions|field\/assignments\/[^/]+\/photo)\/?$/.test(pathname);
}

export interface OwnerRefusal {
  status: 409;
  code: typeof OUTBOX_OWNER_MISMATCH;
  detail: string;
}

/**
 * The refusal of a photo send whose declared owner is not the session's zoomer (or that declares
 * none), or null when the request may go on. Requests that send no photo are not concerned.
 */
export function outboxOwnerRefusal({ path, owner, sessionOwner }: { path: string; owner: string | null; sessionOwner: string }): OwnerRefusal | null {
  if (!sendsPhoto(path)) return null;
  if (owner === sessionOwner) return null;
  return {
    status: 409,
    code: OUTBOX_OWNER_MISMATCH,
    detail: owner
      ? "This photo was taken by another zoomer on this phone: it is sent only when they sign in again."
      : `A photo is sent with its owner in ${OUTBOX_OWNER_HEADER}; this request names none.`,
  };
}

/** Photos of one other owner waiting on this phone: who (id, and name when one was recorded) and how many. */
export interface WaitingForOwner {
  owner: string | null;
  /** The name the owner's photos were stamped with (the newest); null for photos kept before names were. */
  ownerName: string | null;
  count: number;
}

/** How many kept photos wait for each other owner (entries without one are counted under null). */
export function waitingByOwner<E extends { owner?: string; ownerName?: string }>(
  entries: readonly E[],
  me: string | null,
  pending: (entry: E) => boolean,
): WaitingForOwner[] {
  const waiting = new Map<string | null, WaitingForOwner>();
  for (const entry of entries) {
    const owner = entry.owner ?? null;
    if (owner !== null && owner === me) continue;
    if (!pending(entry)) continue;
    const seen = waiting.get(owner) ?? { owner, ownerName: null, count: 0 };
    // Entries are kept in the order they were taken: a later name (renamed since) wins.
    waiting.set(owner, { owner, ownerName: owner !== null && entry.ownerName ? entry.ownerName : seen.ownerName, count: seen.count + 1 });
  }
  return [...waiting.values()];
}
