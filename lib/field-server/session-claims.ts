// Who a field session belongs to and until when, read from its access token (a JWT the service
// signed: claims `zoomer`, `zoomer_name`, `client_id`, `exp`). Only decoded here — the service verifies the
// signature of every request the session makes — so an edited token names an owner nothing can
// be sent with. Pure, so it is unit-tested; lib/field-server/session.ts reads the cookie.
import { decodeJwt } from "jose";
import { z } from "zod";
import type { FieldSession } from "@/lib/field/outbox-owner";

/** The browser drops the session cookie this long before its token expires (lib/field-server/session.ts). */
export const COOKIE_MARGIN_S = 60;

const Claims = z.object({
  zoomer: z.string().min(1).optional(),
  // Only shown to people, never trusted for anything: an odd one is dropped, not the session.
  zoomer_name: z.string().trim().min(1).max(200).optional().catch(undefined),
  client_id: z.string().min(1),
  exp: z.number().int(),
});

/** A session token's owner and the end of its cookie; null for a token that is not one of ours. */
export function sessionOfToken(token: string): FieldSession | null {
  let payload: unknown;
  try {
    payload = decodeJwt(token);
  } catch {
    return null;
  }
  const claims = Claims.safeParse(payload);
  if (!claims.success) return null;
  return {
    zoomerId: claims.data.zoomer ?? claims.data.client_id,
    zoomerName: claims.data.zoomer_name ?? null,
    expiresAt: new Date((claims.data.exp - COOKIE_MARGIN_S) * 1000).toISOString(),
  };
}
