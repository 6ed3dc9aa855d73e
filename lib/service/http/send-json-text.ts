// Sends JSON serialised beforehand (lib/service/json-text.ts) exactly as c.json would send the value:
// the same Content-Type and headers, without a JSON.stringify per request.
import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import type { JsonText } from "@/lib/service/json-text";

export function sendJsonText<T, U extends ContentfulStatusCode>(c: Context, text: JsonText<T>, status: U): Response & TypedResponse<JSONParsed<T>, U, "json"> {
  const response = c.body(text, status, { "Content-Type": "application/json" });
  // The text is a T's JSON by its type (toJsonText): the typed response c.json would have given.
  return response as unknown as Response & TypedResponse<JSONParsed<T>, U, "json">;
}
