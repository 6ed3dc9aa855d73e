/**
 * Serves the self-hosted PMTiles archive (MAP_BASEMAP=pmtiles) from our own origin at
 * /map-assets/basemap.pmtiles, answering the byte-range requests the browser's pmtiles reader
 * makes (header and root directory first, then a leaf directory or a tile at a time). The archive
 * is a file (PMTILES_PATH, default DATA_DIR/basemap.pmtiles) or sits at PMTILES_URL, whose Range
 * responses are passed through: the browser never talks to a third party.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";

export type PmtilesSource = { kind: "file"; path: string } | { kind: "url"; url: string };

/** An hour: a deployer replacing the archive sees it within the hour (the reader also checks the ETag). */
const CACHE_CONTROL = "public, max-age=3600";
const UPSTREAM_TIMEOUT_MS = 10_000;

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against `size`: [start, end] inclusive, "unsatisfiable", or null for no (or a multi-) range. */
export function parseRange(header: string | null, size: number): [number, number] | "unsatisfiable" | null {
  if (header === null) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return null;
  let start: number;
  let end: number;
  if (from === "") {
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start > end || start >= size) return "unsatisfiable";
  return [start, end];
}

function notFound(): Response {
  return new Response("No PMTiles archive here (MAP_BASEMAP=pmtiles needs PMTILES_PATH, DATA_DIR/basemap.pmtiles or PMTILES_URL)", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

async function fromFile(path: string, rangeHeader: string | null, method: string): Promise<Response> {
  let size: number;
  let etag: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) return notFound();
    size = info.size;
    etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  } catch {
    return notFound();
  }
  const headers: Record<string, string> = {
    "content-type": "application/vnd.pmtiles",
    "accept-ranges": "bytes",
    "cache-control": CACHE_CONTROL,
    etag,
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
  };
  const range = parseRange(rangeHeader, size);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  const [start, end] = range ?? [0, size - 1];
  const status = range === null ? 200 : 206;
  if (range !== null) headers["content-range"] = `bytes ${start}-${end}/${size}`;
  headers["content-length"] = String(size === 0 ? 0 : end - start + 1);
  if (method === "HEAD" || size === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}

const PASSED_THROUGH = ["content-type", "content-length", "content-range", "accept-ranges", "etag", "last-modified"];

async function fromUrl(url: string, rangeHeader: string | null, method: string): Promise<Response> {
  let upstream: Response;
  try {
    upstream = await fetch(url, {
      method: method === "HEAD" ? "HEAD" : "GET",
      headers: rangeHeader === null ? {} : { range: rangeHeader },
      redirect: "follow",
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
  } catch {
    return new Response("The PMTiles archive could not be reached", {
      status: 502,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  if (upstream.status !== 200 && upstream.status !== 206 && upstream.status !== 416) {
    await upstream.body?.cancel();
    return upstream.status === 404
      ? notFound()
      : new Response("The PMTiles archive could not be read", { status: 502, headers: { "cache-control": "no-store" } });
  }
  const headers: Record<string, string> = {
    "cache-control": CACHE_CONTROL,
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
  };
  for (const name of PASSED_THROUGH) {
    const value = upstream.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return new Response(method === "HEAD" ? null : upstream.body, { status: upstream.status, headers });
}

/** The response to GET or HEAD /map-assets/basemap.pmtiles with the request's Range header. */
export function pmtilesResponse({ source, range, method = "GET" }: { source: PmtilesSource | null; range: string | null; method?: string }): Promise<Response> {
  if (source === null) return Promise.resolve(notFound());
  return source.kind === "file" ? fromFile(source.path, range, method) : fromUrl(source.url, range, method);
}
