// How JSON request bodies are parsed (parseJsonBody), and their nesting cap, checked on the raw
// text before it is parsed, checked on the raw text before it is parsed. Parsing is
// fine with deep nesting, but what walks the parsed value afterwards is recursive — the storable-
// text check, zod — and a body of a few kilobytes nested 3,000 levels deep overflowed the stack
// (a 500). No request of this API comes near the cap: the deepest, a GeoJSON polygon inside a
// mission or an order draft, is under 10 levels.
import { ApiError } from "@/lib/service/errors";

/** Most arrays and objects a JSON request body may nest (documented in docs/operations.md, Environment: MAX_BODY_BYTES). */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays and objects deeper than `max`; one pass, no recursion. */
export function jsonNestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

export const JSON_TOO_DEEP_DETAIL = `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`;

/** A JSON request body's value: 400 `json_too_deep` past the cap, 400 `malformed_json` when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  if (jsonNestsDeeperThan(text)) throw new ApiError(400, "json_too_deep", JSON_TOO_DEEP_DETAIL);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, "malformed_json", "The request body is not valid JSON.");
  }
}
