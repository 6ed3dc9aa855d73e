// The outbox's resumable transport: tus 1.0.0 through tus-js-client against the field page's
// same-origin proxy (app/field/api/uploads → the service's /api/v1/field/uploads, the token added
// server-side from the httpOnly session cookie, so the browser never holds it). Sent in 1 MB chunks, so a lost signal costs at most the chunk in flight; the
// upload's URL is kept per photo (fingerprint = the outbox entry's id), so after a drop, a reload
// or a killed tab the send continues from the server's offset. The server answers the finished
// upload with `Submission-Id` (also on a HEAD after a lost final answer), and keys the submission
// by the photo's SHA-256: sent again, the photo still makes one submission.
import { DetailedError, Upload } from "tus-js-client";
import type { OutboxEntry } from "./outbox-state";
import { answerOutcome, ownerHeaders, TRANSPORT_CODES, type UploadOutcome, type UploadPhoto } from "./transport";

/** The page's same-origin tus path (app/field/api/[...path], lib/field-server/field-routes.ts, which is server-side). */
const PAGE_UPLOADS_PATH = "/field/api/uploads";

const CHUNK_BYTES = 1024 * 1024;
const LOST_SIGNAL = "No signal: the photo waits on the phone and goes on from where it stopped when the connection is back.";

/** The Upload-Metadata the service reads (DESIGN.md "Field uploads"); only what the phone has. */
export function tusMetadata(entry: OutboxEntry): Record<string, string> {
  const metadata: Record<string, string> = { target: entry.target.id, filename: entry.filename };
  if (entry.target.kind === "mission") {
    if (entry.angle) metadata.angle = entry.angle;
    if (entry.note) metadata.note = entry.note;
  }
  const { position, heading_deg, captured_at } = entry.evidence;
  if (position) metadata.device_position = `${position.lat},${position.lng},${Math.round(position.accuracy_m)}`;
  if (heading_deg !== null) metadata.heading_deg = String(Math.round(heading_deg) % 360);
  metadata.captured_at = captured_at;
  return metadata;
}

/** The outcome a failed upload means for the outbox. */
export function failureOutcome(error: unknown): UploadOutcome {
  const response = error instanceof DetailedError ? error.originalResponse : null;
  if (!response) return { kind: "lost-signal", error: LOST_SIGNAL, code: TRANSPORT_CODES.noSignal };
  const status = response.getStatus();
  // 404/410: the partial upload is gone (expired and swept): start again from byte 0.
  if (status === 404 || status === 410)
    return { kind: "lost-signal", error: "The half-sent photo expired on the server; sending it again.", code: TRANSPORT_CODES.uploadExpired };
  return answerOutcome(status, response.getBody() ?? "", LOST_SIGNAL);
}

/**
 * tus-js-client's own rule for its quick retries (any answer but a 4xx, or a 409/423 offset
 * conflict, while online), except a refusal for another owner, which trying again cannot change.
 */
export function shouldRetry(error: Error, online: boolean): boolean {
  const response = error instanceof DetailedError ? error.originalResponse : null;
  const status = response?.getStatus() ?? 0;
  if (response && answerOutcome(status, response.getBody() ?? "", LOST_SIGNAL).kind === "wrong-owner") return false;
  return (status < 400 || status >= 500 || status === 409 || status === 423) && online;
}

export const uploadTus: UploadPhoto = (entry, onProgress) =>
  new Promise<UploadOutcome>((resolve) => {
    let submissionId: string | null = null;
    const upload = new Upload(entry.photo, {
      endpoint: PAGE_UPLOADS_PATH,
      chunkSize: CHUNK_BYTES,
      // A few quick retries for a blip; the outbox's backoff and the online event take over after.
      retryDelays: [0, 1000, 3000],
      // A refusal for another owner will not change by trying again.
      onShouldRetry: (error) => shouldRetry(error, typeof navigator === "undefined" || navigator.onLine),
      metadata: tusMetadata(entry),
      // On every request of the upload (creation, HEAD, PATCH): whose photo it is.
      headers: ownerHeaders(entry),
      fingerprint: async () => `photo-missions-field:${entry.id}`,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(total > 0 ? (sent / total) * 100 : 0),
      onAfterResponse: (_request, response) => {
        const id = response.getHeader("Submission-Id");
        if (id) submissionId = id;
      },
      onSuccess: () =>
        resolve(
          submissionId
            ? { kind: "accepted", submissionId }
            : { kind: "lost-signal", error: "The server has the photo but did not say its submission; asking again.", code: TRANSPORT_CODES.noSubmissionId },
        ),
      // On the next try tus-js-client asks for the offset (HEAD); an upload the server no longer has
      // (404/410) it creates anew.
      onError: (error) => resolve(failureOutcome(error)),
    });
    void upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous[0];
        if (last) upload.resumeFromPreviousUpload(last);
        upload.start();
      })
      .catch(() => upload.start());
  });
