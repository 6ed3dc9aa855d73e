/**
 * A token bucket per key, in this process: `capacity` requests at once, refilled at `perSecond`.
 * For dashboard routes that call a third party on the user's behalf (the geocoder: public
 * Nominatim asks for at most one request a second), where a shared database counter would be
 * more than the limit is worth; with several web instances each counts its own.
 */
export interface TokenBucketOptions {
  capacity: number;
  perSecond: number;
  /** Keys kept at most (the oldest idle ones are forgotten first). */
  maxKeys?: number;
}

export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly options: TokenBucketOptions) {}

  take(key: string, now = Date.now()): Take {
    const { capacity, perSecond, maxKeys = 10_000 } = this.options;
    const known = this.buckets.get(key);
    const tokens = known ? Math.min(capacity, known.tokens + ((now - known.at) / 1000) * perSecond) : capacity;
    // Re-inserted last, so the Map's first key is always the longest idle.
    this.buckets.delete(key);
    if (this.buckets.size >= maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perSecond)) };
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return { ok: true };
  }
}
