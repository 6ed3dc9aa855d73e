// Every located submission of a mission as one GeoJSON FeatureCollection of points, for the
// dashboard's clustered map (up to about 100,000 points). Built for speed: the database writes the
// features' JSON text from the five columns it needs, so no row is decoded, validated or
// serialised here. A version tag (ETag) lets an unchanged mission answer 304 without reading the
// rows at all, and a document this process built for the same version is answered from memory
// (points-cache.ts): at 100,000 points building it keeps PGlite, and so the web process, busy
// for seconds.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { and, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { SUBMISSION_STATUSES, submissions, type SubmissionStatus } from "@/lib/db/schema";
import { parseStatusFilter } from "@/lib/service/query-filters";
import type { CachedPoints, PointsCache } from "./points-cache";

export interface GetSubmissionPointsOptions {
  db: Db;
  /** A mission the caller may read (checked by the caller). */
  missionId: string;
  /** Comma-separated statuses or "all" (the default). */
  status?: string;
  /** Received at or after (ISO 8601). */
  since?: string;
  /** Received before (ISO 8601). */
  until?: string;
  /** The request's If-None-Match header. */
  ifNoneMatch?: string;
  /** Documents built before, by version; absent: always built. */
  cache?: PointsCache;
}

/** `body` null when `ifNoneMatch` matched (answer 304). */
export type SubmissionPoints = { etag: string; body: null } | PointsDocument;

export interface PointsDocument {
  /** Weak ETag of this answer. */
  etag: string;
  /** The FeatureCollection as JSON text. */
  body: string;
  /**
   * The body gzipped, compressed once per document and kept with it in the cache: at 100,000
   * points that is 21 MB of text, which compressing on every request would keep a core busy for
   * most of a second. zlib works on libuv's threads, so the event loop is not blocked meanwhile.
   */
  gzipped: () => Promise<Uint8Array<ArrayBuffer>>;
}

const gzipAsync = promisify(gzip);

/** The document's gzip, made once; `made` hears its length (the cache counts it). */
function withGzip(document: CachedPoints, made?: (bytes: number) => void): () => Promise<Uint8Array<ArrayBuffer>> {
  // Copied once out of zlib's buffer into one of its own: a response body takes a plain ArrayBuffer.
  return () =>
    (document.gzipped ??= gzipAsync(document.body, { level: 6 }).then((out) => {
      made?.(out.length);
      return new Uint8Array(out);
    }));
}

interface Versions {
  total: number;
  received: number;
  processing: number;
  approved: number;
  rejected: number;
  latest_us: string | null;
  unlocated: number;
}

/** Weak comparison (RFC 9110 §8.8.3.2) of If-None-Match against our tag; `*` matches any. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

export async function getSubmissionPoints(options: GetSubmissionPointsOptions): Promise<SubmissionPoints> {
  const { db, missionId } = options;
  const statuses = parseStatusFilter<SubmissionStatus>(options.status, SUBMISSION_STATUSES, null);
  const filters: SQL[] = [];
  if (statuses) filters.push(inArray(submissions.status, statuses));
  if (options.since) filters.push(gte(submissions.createdAt, new Date(options.since)));
  if (options.until) filters.push(lt(submissions.createdAt, new Date(options.until)));
  const filter = filters.length > 0 ? and(...filters) : sql`true`;
  // A usable position: both coordinates present, finite and in range (NaN and infinities fail
  // `between`); anything else is counted as unlocated, never written into the document.
  const located = sql`coalesce(${submissions.lat} between -90 and 90 and ${submissions.lng} between -180 and 180, false)`;

  // One snapshot for the version, the unlocated count and the points, so they agree.
  return db.transaction(
    async (tx) => {
      // The version covers the whole mission, whatever the filters: rows are only ever added,
      // and a row's location and time never change, so the count, the count per status and the
      // latest change identify what any filter selects — even if two changes share a timestamp.
      const [versions] = await queryRows<Versions>(
        tx,
        sql`select count(*)::int as total,
                   count(*) filter (where ${submissions.status} = 'received')::int as received,
                   count(*) filter (where ${submissions.status} = 'processing')::int as processing,
                   count(*) filter (where ${submissions.status} = 'approved')::int as approved,
                   count(*) filter (where ${submissions.status} = 'rejected')::int as rejected,
                   (extract(epoch from max(${submissions.updatedAt})) * 1000000)::bigint::text as latest_us,
                   count(*) filter (where (${filter}) and not (${located}))::int as unlocated
            from ${submissions} where ${submissions.missionId} = ${missionId}`,
      );
      if (!versions) throw new Error("aggregate returned no row");
      // The slot is what was asked for (mission and filters); the version adds the mission's state.
      const asked = [statuses ? [...statuses].sort().join(",") : "all", options.since ?? "", options.until ?? ""];
      const slot = [missionId, ...asked].join("|");
      const version = [
        missionId,
        versions.total,
        versions.received,
        versions.processing,
        versions.approved,
        versions.rejected,
        versions.latest_us ?? "-",
        ...asked,
      ].join("|");
      const etag = `W/"${createHash("sha256").update(version).digest("base64url").slice(0, 27)}"`;
      if (matches(options.ifNoneMatch, etag)) return { etag, body: null };
      const cached = options.cache?.get(slot, version);
      if (cached) return { etag, body: cached.body, gzipped: withGzip(cached, (bytes) => options.cache?.noteGzipped(slot, cached, bytes)) };

      // The database writes each Feature and joins them, newest first: one text value comes back
      // instead of 100,000 rows to decode (the decoding dominated, on PGlite above all). Ids go
      // through to_json for quoting; statuses are our own tokens; coordinates are finite and in
      // range (see `located`), and float8 prints them in the shortest form that reads back exactly.
      const [row] = await queryRows<{ features: string | null; count: number }>(
        tx,
        sql`select string_agg(
                     '{"type":"Feature","geometry":{"type":"Point","coordinates":[' || ${submissions.lng} || ',' || ${submissions.lat} ||
                     ']},"properties":{"id":' || to_json(${submissions.id})::text || ',"status":"' || ${submissions.status} ||
                     '","received_at":"' || to_char(${submissions.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}}',
                     ',' order by ${submissions.createdAt} desc, ${submissions.id} desc
                   ) as features,
                   count(*)::int as count
            from ${submissions}
            where ${submissions.missionId} = ${missionId} and (${filter}) and ${located}`,
      );
      const body = `{"type":"FeatureCollection","features":[${row?.features ?? ""}],"meta":{"count":${row?.count ?? 0},"unlocated":${versions.unlocated}}}`;
      const document: CachedPoints = { version, body };
      options.cache?.set(slot, document);
      return { etag, body, gzipped: withGzip(document, (bytes) => options.cache?.noteGzipped(slot, document, bytes)) };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}
