// What every request of the service gets, whichever way it is answered — through the Hono app
// (app.ts) or as a direct read (direct-reads.ts): its request id, the headers every response
// carries, and the problem document an error becomes.
import { randomUUID } from "node:crypto";
import { HTTPException } from "hono/http-exception";
import { log } from "@/lib/log";
import { ApiError, problemResponse } from "@/lib/service/errors";
import { ObjectNotFoundError, StorageError } from "@/lib/service/storage/object-store";

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** A caller's own request id is kept when it is a plain token, so its logs and ours match. */
export function requestIdOf(given: string | undefined): string {
  return given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Headers on every answer of the service, errors included (a handler may override Cache-Control). */
export const EVERY_RESPONSE_HEADERS = { "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" } as const;

/** The request an error answers, as logs and the problem document name it. */
export interface FailedRequest {
  method: string;
  /** The path only: query strings may carry signatures (CDN URLs). */
  path: string;
  requestId: string;
  /** What this request's responses carry already (its request id, rate-limit headers). */
  responseHeaders: Readonly<Record<string, string>>;
}

/** The problem response for an error a request ended with; unexpected errors are logged, never sent. */
export function errorResponse(error: unknown, { method, path, requestId, responseHeaders }: FailedRequest): Response {
  const headers = { ...responseHeaders, ...EVERY_RESPONSE_HEADERS };
  if (error instanceof ApiError) return problemResponse(error, path, headers);
  if (error instanceof HTTPException) {
    const code = error.status === 400 ? "malformed_request" : `http_${error.status}`;
    return problemResponse(new ApiError(error.status, code, error.message || "The request could not be processed."), path, headers);
  }
  if (error instanceof ObjectNotFoundError) {
    // Removed between the database read and the store read (or by a sweep): as if never there.
    return problemResponse(new ApiError(404, "not_found", "That photo is no longer stored."), path, headers);
  }
  if (error instanceof StorageError) {
    // The message names keys and endpoints: logged, never sent.
    log.error("storage failed", { request_id: requestId, method, path }, error);
    const problem = new ApiError(503, "storage_unavailable", `Photo storage did not answer; try again shortly (request id ${requestId}).`);
    return problemResponse(problem, path, { ...headers, "Retry-After": "5" });
  }
  // Bodies are never logged.
  log.error("request failed", { request_id: requestId, method, path }, error);
  const detail = `Something went wrong on our side. It has been logged with request id ${requestId}.`;
  return problemResponse(new ApiError(500, "internal_error", detail), path, headers);
}
