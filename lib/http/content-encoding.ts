// Choosing how to send a body the client may take compressed, for the files we serve ourselves
// (the offline basemap, lib/map/offline-basemap-assets.ts; Next's built scripts and styles,
// next-static.ts; the map's submission points).

export type Encoding = "br" | "gzip" | "identity";

/** For files whose name changes with their content: cached for a year, never revalidated. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** The codings an Accept-Encoding header accepts (those not refused with q=0), lower case. */
export function acceptedEncodings(acceptEncoding: string | null | undefined): Set<string> {
  return new Set(
    (acceptEncoding ?? "")
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, q]) => q?.trim() !== "q=0")
      .map(([name]) => name?.trim().toLowerCase() ?? ""),
  );
}

/** The best encoding the client accepts: brotli, then gzip, else none. */
export function pickEncoding(acceptEncoding: string | null): Encoding {
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return "identity";
}
