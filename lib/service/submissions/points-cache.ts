// The points documents this process built last, so that a map opened again (another user, a
// reload, the next page of a review) is answered without the database writing 100,000 features
// once more: building the text keeps PGlite — which runs inside the web process — busy for
// seconds at that size, and the page waits behind it. One entry per mission and filter, holding
// only the newest version: the caller looks the version up first (one aggregate over the
// mission's rows) and a document built for another version is never served. Bounded by the
// documents' total length; the least recently used go first, and a document larger than the
// whole budget is not kept at all. Per process: each web instance keeps its own, and the version
// check makes them agree with the database, not with each other. A document's gzip, made on the
// first request that takes it, counts towards the budget from then on.

/** POINTS_CACHE_MB's default: a million points are about 214 MB of text. */
export const DEFAULT_POINTS_CACHE_CHARS = 256 * 1024 * 1024;

export interface CachedPoints {
  /** Everything the document depends on (mission, per-status counts, latest change, filters). */
  version: string;
  body: string;
  /** The body gzipped, made on the first request that takes gzip (about a fifth of its length). */
  gzipped?: Promise<Uint8Array<ArrayBuffer>>;
  /** The gzip's length once made and counted (noteGzipped). */
  gzippedBytes?: number;
}

/** What an entry costs in the budget: its text, and its gzip once made. */
const weight = (entry: CachedPoints): number => entry.body.length + (entry.gzippedBytes ?? 0);

export class PointsCache {
  readonly #maxChars: number;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #entries = new Map<string, CachedPoints>();
  #chars = 0;

  /** `maxChars`: the most document text (and gzip bytes) kept at once (0 keeps nothing). */
  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** The document of `slot` (mission and filters) if it was built for exactly `version`. */
  get(slot: string, version: string): CachedPoints | undefined {
    const entry = this.#entries.get(slot);
    if (!entry || entry.version !== version) return undefined;
    this.#entries.delete(slot);
    this.#entries.set(slot, entry);
    return entry;
  }

  /** Keeps `entry` as the slot's document, replacing an older version; evicts the least recently used beyond the budget. */
  set(slot: string, entry: CachedPoints): void {
    this.#remove(slot);
    if (entry.body.length > this.#maxChars) return;
    this.#entries.set(slot, entry);
    this.#chars += weight(entry);
    this.#evict();
  }

  /**
   * Counts the gzip made for `entry` (`bytes` long) while it is the slot's document, evicting the
   * least recently used beyond the budget; a document replaced meanwhile costs nothing here.
   */
  noteGzipped(slot: string, entry: CachedPoints, bytes: number): void {
    if (entry.gzippedBytes !== undefined) return;
    entry.gzippedBytes = bytes;
    if (this.#entries.get(slot) !== entry) return;
    this.#chars += bytes;
    this.#evict();
  }

  /** Total length of the documents kept, with their gzips once made. */
  get size(): number {
    return this.#chars;
  }

  #evict(): void {
    for (const [oldest] of this.#entries) {
      if (this.#chars <= this.#maxChars) break;
      this.#remove(oldest);
    }
  }

  #remove(slot: string): void {
    const entry = this.#entries.get(slot);
    if (!entry) return;
    this.#entries.delete(slot);
    this.#chars -= weight(entry);
  }
}
