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

/**
 * A JSON request body as every JSON route takes it: 400 for malformed JSON or JSON nested past
 * MAX_JSON_DEPTH, 422 for text PostgreSQL cannot store (checked here as well as after validation:
 * it covers members a schema ignores). The jsonBody guard, optional bodies and the direct reads.
 */
export function readJsonBody(text: string): unknown {
  const parsed = parseJsonBody(text);
  assertStorableInput(parsed, "body");
  return parsed;
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
    const tooLarge = (): never => {
      throw new ApiError(413, "payload_too_large", `The request body is larger than ${maxSize} bytes.`);
    };
    const parseThenNext = async () => {
      const parsed = readJsonBody(await c.req.text());
      // Parsed once: the route's validator and handlers read this value instead of parsing the
      // text again (nothing mutates it: zod builds its output anew).
      c.req.json = <T>() => Promise.resolve(parsed as T);
      await next();
    };
    // A declared length is checked before reading, and Node's parser ends the body at it; the
    // text is then read straight from Node's stream (@hono/node-server's fast path). Hono's
    // bodyLimit would touch `request.body` first, which builds a web Request and its stream for
    // every POST. A chunked body has no length to trust: bodyLimit counts it as it arrives.
    const declared = declaredLength(c.req.header("content-length"), c.req.header("transfer-encoding"));
    if (declared !== undefined) {
      if (declared > maxSize) tooLarge();
      return parseThenNext();
    }
    return bodyLimit({ maxSize, onError: tooLarge })(c, parseThenNext);
  });
}

/** Content-Length when it alone frames the body (no Transfer-Encoding beside it). */
export function declaredLength(contentLength: string | undefined, transferEncoding: string | undefined): number | undefined {
  if (contentLength === undefined || transferEncoding !== undefined) return undefined;
  const length = Number(contentLength);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

export const jsonBody = jsonBodyGuard({ optional: false });

/** For a route whose body may be left out: a request without Content-Type passes; a body that is there is guarded as by jsonBody. */
export const optionalJsonBody = jsonBodyGuard({ optional: true });
