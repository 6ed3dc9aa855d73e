// The photo CDN: serves originals (bytes exactly as uploaded) and derivatives behind signed,
// expiring URLs, with ETags, single byte ranges and long-lived caching up to the URL's expiry.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { images } from "@/lib/db/schema";
import { photoFileExtension } from "@/lib/photos/photo-types";
import { checkImageSignature, IMAGE_VARIANTS, type ImageVariant } from "@/lib/service/cdn/signed-url";
import { ApiError } from "@/lib/service/errors";
import { publicErrorResponses, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const route = createRoute({
  method: "get",
  path: "/images/{image_id}/{variant}",
  operationId: "downloadImage",
  tags: ["CDN"],
  summary: "Photo bytes (signed URL)",
  description:
    "The URLs come from the API (image records, webhooks) and carry `exp` and `sig`; no bearer token is needed. `original` is the uploaded file " +
    "byte for byte (EXIF with GPS included); `preview` (1280 px) and `thumbnail` (320 px) are re-encoded without metadata. Supports " +
    "`Range: bytes=…` (one range), `If-None-Match`, and caching until the URL expires.",
  security: [],
  request: {
    params: z.object({
      image_id: z
        .string()
        .max(MAX_ID_LENGTH)
        .openapi({ param: { name: "image_id", in: "path" } }),
      variant: z.enum(IMAGE_VARIANTS).openapi({ param: { name: "variant", in: "path" } }),
    }),
    query: z.object({
      exp: z.string().max(20).openapi({ description: "Expiry, Unix seconds." }),
      sig: z.string().max(128).openapi({ description: "HMAC-SHA256 signature." }),
    }),
  },
  responses: {
    200: {
      description: "The bytes: the original as sent (JPEG or HEIC/HEIF), every other variant a JPEG.",
      content: {
        "image/jpeg": { schema: z.string().openapi({ format: "binary" }) },
        "image/heic": { schema: z.string().openapi({ format: "binary" }) },
        "image/heif": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    206: {
      description: "The requested byte range.",
      content: {
        "image/jpeg": { schema: z.string().openapi({ format: "binary" }) },
        "image/heic": { schema: z.string().openapi({ format: "binary" }) },
        "image/heif": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    304: { description: "Not modified (If-None-Match matched)." },
    403: {
      description: "The signature is invalid or the URL has expired.",
      content: { "application/problem+json": { schema: z.object({ code: z.string() }) } },
    },
    416: { description: "The range cannot be satisfied." },
    ...publicErrorResponses(404),
  },
});

function parseRange(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null; // multi-range or malformed: serve the whole file
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

export function registerCdnRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /cdn/images/:image_id/:variant – signed photo bytes
  app.openAPIRegistry.registerPath(route);
  app.on(["GET", "HEAD"], "/images/:image_id/:variant", async (c) => {
    const { ctx } = c.var;
    const imageId = c.req.param("image_id");
    const variant = c.req.param("variant") as ImageVariant;
    if (!(IMAGE_VARIANTS as readonly string[]).includes(variant)) throw new ApiError(404, "not_found", "No such image variant.");
    const verdict = checkImageSignature(ctx.cdnSecret, imageId, variant, c.req.query("exp"), c.req.query("sig"));
    if (verdict === "invalid") throw new ApiError(403, "invalid_signature", "This image URL is not valid. Get a fresh one from the API.");
    if (verdict === "expired") throw new ApiError(403, "url_expired", "This image URL has expired. Get a fresh one from the API.");

    const [image] = await ctx.db.select().from(images).where(eq(images.id, imageId)).limit(1);
    const key =
      image &&
      { original: image.storageKey, preview: image.previewKey, thumbnail: image.thumbnailKey, blurred: image.blurredKey, c2pa: image.c2paKey }[variant];
    const stored = key ? await ctx.store.stat(key) : null;
    if (!image || !key || !stored) throw new ApiError(404, "not_found", variant === "original" ? "No such image." : "This image has no such rendition yet.");

    const etag = variant === "original" ? `"sha256-${image.sha256}"` : `"${image.id}-${variant}-${image.sha256.slice(0, 16)}"`;
    const maxAge = Math.max(0, Number(c.req.query("exp")) - Math.floor(Date.now() / 1000));
    const headers: Record<string, string> = {
      // The original as it was sent (JPEG or HEIC/HEIF); every rendition (thumbnail, preview, blurred, C2PA copy) is a JPEG.
      "Content-Type": variant === "original" ? image.contentType : "image/jpeg",
      ETag: etag,
      "Accept-Ranges": "bytes",
      // Originals and their blurred copies carry GPS: only the holder's own cache may keep them; derivatives have none.
      "Cache-Control": `${variant === "original" || variant === "blurred" || variant === "c2pa" ? "private" : "public"}, max-age=${maxAge}, immutable`,
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": `inline; filename="${image.id}${variant === "original" ? `.${photoFileExtension(image.contentType)}` : `-${variant}.jpg`}"`,
    };
    const inm = c.req.header("if-none-match");
    if (inm && inm.split(",").some((t) => t.trim() === etag || t.trim() === "*")) return c.body(null, 304, headers);

    const range = parseRange(c.req.header("range"), stored.size);
    if (range === "unsatisfiable") {
      return c.body(null, 416, { ...headers, "Content-Range": `bytes */${stored.size}` });
    }
    const status = range ? 206 : 200;
    const length = range ? range.end - range.start + 1 : stored.size;
    if (range) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${stored.size}`;
    headers["Content-Length"] = String(length);
    if (c.req.method === "HEAD") return c.body(null, status, headers);
    const stream = await ctx.store.read(key, range ?? undefined);
    return c.body(Readable.toWeb(stream) as ReadableStream, status, headers);
  });
}
