// The outbox's transport through the field page's own routes (app/field/api/*), which add the
// zoomer's token server-side, so the browser never holds it: one multipart POST per photo with the
// capture evidence as form fields (DESIGN.md "Field uploads": device_position, captured_at,
// heading_deg), through XMLHttpRequest because only it reports upload progress. The verdict is
// read from the submission (missions) or the task (order tasks).
import type { OutboxEntry } from "./outbox-state";
import {
  answerOutcome,
  isRetryableStatus,
  ownerHeaders,
  problemCode,
  problemText,
  TRANSPORT_CODES,
  type CheckVerdict,
  type ReasonCode,
  type UploadOutcome,
  type UploadPhoto,
} from "./transport";

const NO_SIGNAL = "No signal: the photo waits on the phone and goes when the connection is back.";

export function uploadUrl(entry: OutboxEntry): string {
  const id = encodeURIComponent(entry.target.id);
  return entry.target.kind === "task" ? `/field/api/assignments/${id}/photo` : `/field/api/missions/${id}/submissions`;
}

/**
 * The form the field routes expect, with the evidence fields the phone had (DESIGN.md "Field
 * uploads"; a server without them would refuse them as unexpected fields, hence the switch).
 */
export function uploadForm(entry: OutboxEntry, { evidenceFields }: { evidenceFields: boolean }): FormData {
  const form = new FormData();
  form.append("photos", entry.photo, entry.filename);
  if (entry.target.kind === "mission") {
    if (entry.angle) form.append("angle", entry.angle);
    if (entry.note) form.append("note", entry.note);
  }
  if (!evidenceFields) return form;
  const { position, heading_deg, captured_at } = entry.evidence;
  if (position) form.append("device_position", `${position.lat},${position.lng},${Math.round(position.accuracy_m)}`);
  if (heading_deg !== null) form.append("heading_deg", String(Math.round(heading_deg)));
  form.append("captured_at", captured_at);
  return form;
}

/** The multipart field routes take the evidence fields (lib/verification/device-evidence.ts validates them). */
export const MULTIPART_EVIDENCE_FIELDS = true;

export const uploadMultipart: UploadPhoto = (entry, onProgress) =>
  new Promise<UploadOutcome>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", uploadUrl(entry));
    for (const [name, value] of Object.entries(ownerHeaders(entry))) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress((e.loaded / e.total) * 100);
    };
    xhr.onload = () => {
      if (xhr.status === 202) {
        const body = JSON.parse(xhr.responseText) as { id?: unknown };
        if (typeof body.id === "string") return resolve({ kind: "accepted", submissionId: body.id });
      }
      resolve(answerOutcome(xhr.status, xhr.responseText, NO_SIGNAL));
    };
    xhr.onerror = xhr.ontimeout = xhr.onabort = () => resolve({ kind: "lost-signal", error: NO_SIGNAL, code: TRANSPORT_CODES.noSignal });
    xhr.send(uploadForm(entry, { evidenceFields: MULTIPART_EVIDENCE_FIELDS }));
  });

interface SubmissionAnswer {
  status: string;
  reasons?: string[];
  reason_codes?: ReasonCode[];
}
interface TaskAnswer {
  verification?: { status: string; instructions?: string[]; instruction_codes?: ReasonCode[] } | null;
}

export const checkVerdictOverHttp: CheckVerdict = async (entry, submissionId) => {
  const url =
    entry.target.kind === "task"
      ? `/field/api/assignments/${encodeURIComponent(entry.target.id)}`
      : `/field/api/submissions/${encodeURIComponent(submissionId)}`;
  const res = await fetch(url, { cache: "no-store" });
  if (isRetryableStatus(res.status)) throw new Error(`The server answered ${res.status}.`);
  if (!res.ok) {
    const body = await res.text();
    return { status: "rejected", reasons: [problemText(res.status, body)], reasonCodes: [problemCode(res.status, body)] };
  }
  if (entry.target.kind === "task") {
    const task = (await res.json()) as TaskAnswer;
    if (!task.verification) return { status: "pending" };
    return task.verification.status === "approved"
      ? { status: "approved" }
      : {
          status: "rejected",
          reasons: task.verification.instructions ?? [],
          ...(task.verification.instruction_codes ? { reasonCodes: task.verification.instruction_codes } : {}),
        };
  }
  const submission = (await res.json()) as SubmissionAnswer;
  if (submission.status === "approved") return { status: "approved" };
  if (submission.status === "rejected")
    return { status: "rejected", reasons: submission.reasons ?? [], ...(submission.reason_codes ? { reasonCodes: submission.reason_codes } : {}) };
  return { status: "pending" };
};

/** The same POST through fetch, for the service worker's Background Sync (no XMLHttpRequest there, no bar to move). */
export const uploadMultipartWithFetch: UploadPhoto = async (entry) => {
  try {
    const res = await fetch(uploadUrl(entry), {
      method: "POST",
      body: uploadForm(entry, { evidenceFields: MULTIPART_EVIDENCE_FIELDS }),
      headers: ownerHeaders(entry),
      credentials: "same-origin",
    });
    const text = await res.text();
    if (res.status === 202) {
      const body = JSON.parse(text) as { id?: unknown };
      if (typeof body.id === "string") return { kind: "accepted", submissionId: body.id };
    }
    return answerOutcome(res.status, text, NO_SIGNAL);
  } catch {
    return { kind: "lost-signal", error: NO_SIGNAL, code: TRANSPORT_CODES.noSignal };
  }
};
