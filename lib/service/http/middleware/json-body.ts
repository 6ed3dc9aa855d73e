// Guards JSON request bodies before validation: 415 for another media type, 413 past the size
// cap (Content-Length or the streamed byte count), 400 for malformed JSON or JSON nested past
// MAX_JSON_DEPTH (json-depth.ts), 422 for text PostgreSQL cannot store (U+0000, lone surrogates).
import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "@/lib/service/errors";
import { parseJsonBody } from "../json-depth";
import { assertStorableInput } from "../storable-input";
import type { AppEnv } from "../types";

export function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

function jsonBodyGuard({ optional }: { optional: boolean }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (optional && c.req.header("content-type") === undefined) return next();
    if (!isJsonMediaType(c.req.header("content-type"))) {
      throw new ApiError(415, "unsupported_media_type", "Send the request body as application/json.", {
        headers: { "Accept-Post": "application/json" },
      });
    }
    const maxSize = c.var.ctx.config.maxBodyBytes;
    const limited = bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, "payload_too_large", `The request body is larger than ${maxSize} bytes.`);
      },
    });
    return limited(c, async () => {
      const parsed = parseJsonBody(await c.req.text());
      // Also checked after validation (app.ts); checking here covers members a schema ignores and
      // handlers that read the body themselves.
      assertStorableInput(parsed, "body");
      // Parsed once: the route's validator and handlers read this value instead of parsing the
      // text again (nothing mutates it: zod builds its output anew).
      c.req.json = <T>() => Promise.resolve(parsed as T);
      await next();
    });
  });
}

export const jsonBody = jsonBodyGuard({ optional: false });

/** For a route whose body may be left out: a request without Content-Type passes; a body that is there is guarded as by jsonBody. */
export const optionalJsonBody = jsonBodyGuard({ optional: true });
