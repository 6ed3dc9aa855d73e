// The map benchmark's baseline server: a tiny node:http server for fixed files (the bare page,
// MapLibre's files, the captured points) and whole directories (the offline basemap). It does the
// least a server can: bytes from memory, gzip made once per file (as a CDN with precompressed
// assets would), no per-request work. In the runner process: while a page loads, the runner only
// waits for Chromium, so the server has its event loop to itself.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { gzipSync } from "node:zlib";

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

export interface StaticServer {
  url: string;
  /** Adds or replaces a file (a page that needs the server's origin is made after it starts). */
  put(path: string, file: StaticFile): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".geojson": "application/geo+json",
  ".pbf": "application/x-protobuf",
};
// Already compact: gzip gains nothing (glyph PBFs are small and binary).
const COMPRESSIBLE = /^(text\/|application\/(json|geo\+json|javascript))/;

export const contentTypeOf = (path: string): string => TYPES[extname(path)] ?? "application/octet-stream";

interface Entry extends StaticFile {
  gzip?: Buffer;
}

const withGzip = (file: StaticFile): Entry => (COMPRESSIBLE.test(file.contentType) ? { ...file, gzip: gzipSync(file.body, { level: 6 }) } : file);

/**
 * Serves `files` by exact path (compressed up front: the captured points are megabytes) and
 * `mounts` (URL prefix → directory) by file name under them (read and compressed on first request).
 */
export async function startStaticServer(files: Map<string, StaticFile>, mounts: Record<string, string>): Promise<StaticServer> {
  const entries = new Map<string, Entry>([...files].map(([path, file]) => [path, withGzip(file)]));
  const lookup = (path: string): Entry | undefined => {
    const known = entries.get(path);
    if (known) return known;
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!path.startsWith(`${prefix}/`)) continue;
      const file = normalize(join(dir, decodeURIComponent(path.slice(prefix.length + 1))));
      if (!file.startsWith(dir + sep)) return undefined;
      try {
        const entry = withGzip({ body: readFileSync(file), contentType: contentTypeOf(file) });
        entries.set(path, entry);
        return entry;
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const entry = lookup(path);
    if (!entry) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const gzip = COMPRESSIBLE.test(entry.contentType) && /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
    const body = gzip && entry.gzip ? entry.gzip : entry.body;
    response.writeHead(200, {
      "content-type": entry.contentType,
      "content-length": String(body.length),
      "cache-control": "no-store",
      ...(gzip ? { "content-encoding": "gzip", vary: "accept-encoding" } : {}),
    });
    response.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    put: (path, file) => void entries.set(path, withGzip(file)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
