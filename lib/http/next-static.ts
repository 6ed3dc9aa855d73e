/**
 * GET/HEAD /_next/static/… under `npm start` (scripts/server.ts): Next's built scripts, styles
 * and media, sent with the brotli or gzip copy `npm run build` wrote beside each of them
 * (scripts/precompress-static.mjs), so no byte is compressed while a browser waits. Next itself
 * gzips these files again on every request, inside the web process that also renders pages and
 * answers the map's points: on the mission page the 1 MB MapLibre chunk took 460 ms to arrive.
 *
 * A file without its copies (a build made by `next build` alone), or of a kind not listed here,
 * is left to Next (null), as are methods other than GET and HEAD. Names are content-hashed, so
 * every answer is cacheable for a year.
 */
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { IMMUTABLE_CACHE_CONTROL, pickEncoding, type Encoding } from "./content-encoding";

export const NEXT_STATIC_PREFIX = "/_next/static/";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".mjs": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

const SUFFIX: Record<Exclude<Encoding, "identity">, string> = { br: ".br", gzip: ".gz" };

/** True when `url` (a request target: path and query) is one of Next's built files. */
export function isNextStaticPath(url: string): boolean {
  return url.startsWith(NEXT_STATIC_PREFIX);
}

// The files never change while the process lives (a new build means a restart): each is read
// once and kept. A build's static files are a few megabytes, their compressed copies a fraction
// of that. A name that is not there is not remembered, so made-up names cannot fill the map.
const bodies = new Map<string, Promise<Buffer | null>>();

function readOnce(path: string): Promise<Buffer | null> {
  let body = bodies.get(path);
  if (!body) {
    body = readFile(path).catch(() => {
      bodies.delete(path);
      return null;
    });
    bodies.set(path, body);
  }
  return body;
}

export interface StaticRequest {
  method: string;
  /** The request target: path and query. */
  url: string;
  acceptEncoding: string | null;
}

export interface StaticAnswer {
  headers: Record<string, string>;
  /** Null for HEAD. */
  body: Buffer | null;
}

/** The answer (always 200) for a /_next/static/ request, or null to let Next answer it. */
export async function nextStaticFile(request: StaticRequest, staticDir: string): Promise<StaticAnswer | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  let name: string;
  try {
    name = decodeURIComponent(new URL(request.url, "http://localhost").pathname.slice(NEXT_STATIC_PREFIX.length));
  } catch {
    return null;
  }
  const contentType = CONTENT_TYPES[extname(name)];
  const root = resolve(staticDir);
  const path = resolve(root, name);
  if (!contentType || name.includes("\0") || !path.startsWith(root + sep)) return null;

  const encoding = pickEncoding(request.acceptEncoding);
  // Without its copy (a build by `next build` alone, or a missing file) Next answers, as before.
  const body = await readOnce(encoding === "identity" ? path : path + SUFFIX[encoding]);
  if (!body) return null;
  return {
    headers: {
      "content-type": contentType,
      "content-length": String(body.length),
      "cache-control": IMMUTABLE_CACHE_CONTROL,
      vary: "Accept-Encoding",
      "x-content-type-options": "nosniff",
      ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
    },
    body: request.method === "HEAD" ? null : body,
  };
}

/** Where `npm start` finds the build's static files. */
export function nextStaticDir(cwd: string): string {
  return join(cwd, ".next", "static");
}
