// A compressed body through Next. Next drops the Content-Encoding of a route handler's response
// (and would compress the body once more), so a handler that returns bytes already compressed
// names their coding in ENCODED_BODY_HEADER instead, and `npm start` (scripts/server.ts) turns
// that header back into Content-Encoding as Next writes it — which also tells Next's own
// compression that the body is encoded already. A handler does this only when the request
// carries PASS_ENCODING_HEADER, which the server sets (and strips from what the client sent):
// under `next dev`, with no server to translate, bodies stay as they were.
import type { IncomingMessage, ServerResponse } from "node:http";
import { acceptedEncodings } from "./content-encoding";

/** Request header from scripts/server.ts: the client takes gzip, and the translation below is in place. */
export const PASS_ENCODING_HEADER = "x-pm-pass-encoding";
/** Response header from a route handler: the coding its body is already in. */
export const ENCODED_BODY_HEADER = "x-pm-content-encoding";

/**
 * Before Next sees the request: says (or unsays) that a compressed body may come back, and has
 * `res` write ENCODED_BODY_HEADER as Content-Encoding.
 */
export function bridgeEncoding(req: IncomingMessage, res: ServerResponse): void {
  delete req.headers[PASS_ENCODING_HEADER];
  if (!acceptedEncodings(req.headers["accept-encoding"]).has("gzip")) return;
  req.headers[PASS_ENCODING_HEADER] = "gzip";
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => setHeader(name.toLowerCase() === ENCODED_BODY_HEADER ? "content-encoding" : name, value);
  const appendHeader = res.appendHeader.bind(res);
  res.appendHeader = (name, value) => appendHeader(name.toLowerCase() === ENCODED_BODY_HEADER ? "content-encoding" : name, value);
}
