// Per-zoomer caps on unfinished resumable uploads: how many may be open at once and how many bytes
// they may reserve between them (the sum of their Upload-Length). A real zoomer's outbox holds a
// handful of photos at a time, so the defaults leave room for that and no more; they bound what one
// zoomer (anyone, with the demo on) can make the server keep on disk for the upload's lifetime.
//
// Refused with 409 Conflict and a code of its own, not 429: the rate limit is about requests per
// time, this is about the state of the zoomer's own uploads, and the zoomer resolves it by changing
// that state (finishing or DELETE-ing one), after which the same request succeeds. Not 403 (nothing
// about who is asking is wrong, and the service's 403 means a missing scope) and not 507 (a 5xx
// blames the server, and tus clients retry 5xx blindly).
import { ApiError } from "@/lib/service/errors";

export const DEFAULT_MAX_OPEN_UPLOADS = 20;
export const DEFAULT_MAX_OPEN_UPLOAD_BYTES = 250 * 1024 * 1024;

export interface OpenUploadCaps {
  /** Most unfinished uploads one zoomer may hold. */
  count: number;
  /** Most bytes (sum of Upload-Length) one zoomer's unfinished uploads may reserve. */
  bytes: number;
}

export function openUploadCaps(uploads: { maxOpenUploads?: number; maxOpenUploadBytes?: number }): OpenUploadCaps {
  return { count: uploads.maxOpenUploads ?? DEFAULT_MAX_OPEN_UPLOADS, bytes: uploads.maxOpenUploadBytes ?? DEFAULT_MAX_OPEN_UPLOAD_BYTES };
}

/** What a zoomer's unfinished uploads hold now. */
export interface OpenUploads {
  count: number;
  bytes: number;
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;

/** Throws the refusal when one more upload of `length` bytes would pass either cap. */
export function assertRoomForUpload(open: OpenUploads, length: number, caps: OpenUploadCaps): void {
  const free = "Finish or DELETE one of them (DELETE /field/uploads/{id}) to make room; unfinished uploads also expire (Upload-Expires).";
  if (open.count >= caps.count) {
    throw new ApiError(409, "too_many_open_uploads", `You have ${open.count} unfinished uploads; at most ${caps.count} may be open at once. ${free}`);
  }
  if (open.bytes + length > caps.bytes) {
    throw new ApiError(
      409,
      "upload_quota_exceeded",
      `Your ${open.count} unfinished uploads reserve ${mib(open.bytes)} (${open.bytes} bytes); this one needs ${mib(length)} more and at most ${mib(caps.bytes)} (${caps.bytes} bytes) may be reserved at once. ${free}`,
    );
  }
}
