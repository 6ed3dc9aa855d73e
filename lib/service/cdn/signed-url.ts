// Capability URLs for photo bytes: /cdn/images/{image_id}/{variant}?exp={unix}&sig={hmac}. They
// work in an <img> tag or a webhook consumer without a bearer token, expire, and cannot be forged
// or stretched (the expiry is inside the signature).
import { createHmac, timingSafeEqual } from "node:crypto";

/** `blurred`: the full-size copy with faces blurred that privacy_blur deliveries carry. `c2pa`: the original's bytes with a signed C2PA manifest (lib/service/provenance). */
export const IMAGE_VARIANTS = ["original", "preview", "thumbnail", "blurred", "c2pa"] as const;
export type ImageVariant = (typeof IMAGE_VARIANTS)[number];

function signature(secret: string, imageId: string, variant: ImageVariant, exp: number): string {
  return createHmac("sha256", secret).update(`${imageId}/${variant}/${exp}`).digest("base64url");
}

export interface SignOptions {
  secret: string;
  /** The CDN's base URL (cdnBaseUrl: CDN_URL, or PUBLIC_ORIGIN/cdn). */
  cdnUrl: string;
  ttlSeconds: number;
  now?: number;
}

/** Expiry is rounded up to the next ttl boundary so repeated reads hand out the same (cacheable) URL. */
export function urlExpiry(ttlSeconds: number, now = Date.now()): number {
  const nowSeconds = Math.floor(now / 1000);
  return nowSeconds - (nowSeconds % ttlSeconds) + 2 * ttlSeconds;
}

export function signImageUrl(imageId: string, variant: ImageVariant, { secret, cdnUrl, ttlSeconds, now }: SignOptions): string {
  const exp = urlExpiry(ttlSeconds, now);
  return `${cdnUrl}/images/${imageId}/${variant}?exp=${exp}&sig=${signature(secret, imageId, variant, exp)}`;
}

export type SignatureCheck = "ok" | "expired" | "invalid";

export function checkImageSignature(
  secret: string,
  imageId: string,
  variant: ImageVariant,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): SignatureCheck {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return "invalid";
  const expected = Buffer.from(signature(secret, imageId, variant, Number(exp)));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  return Number(exp) * 1000 < now ? "expired" : "ok";
}
