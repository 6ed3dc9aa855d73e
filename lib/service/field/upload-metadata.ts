// The tus Upload-Metadata of a field photo: `key base64(value)` pairs, comma-separated (tus 1.0.0
// creation extension). Keys: target (a `mission_…` id or an assignment `asg_…` id), angle,
// filename, and optionally note, device_position (`lat,lng,accuracy_m`), captured_at, heading_deg.
import { ApiError } from "@/lib/service/errors";
import { validateSubmissionFields, type SubmissionFields } from "@/lib/service/submissions/receive-submission";
import type { IntakeTarget } from "@/lib/service/submissions/take-in-photos";
import { toStorableText } from "@/lib/text/storable-text";

export const UPLOAD_METADATA_KEYS = ["target", "angle", "filename", "note", "device_position", "captured_at", "heading_deg"] as const;
type MetadataKey = (typeof UPLOAD_METADATA_KEYS)[number];

export interface FieldUploadMetadata extends SubmissionFields {
  target: IntakeTarget;
  filename: string | null;
}

const TARGET = /^(mission|asg)_[0-9a-z]{26}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_HEADER_LENGTH = 16 * 1024;

const invalid = (pointer: string, message: string) =>
  new ApiError(400, "invalid_upload_metadata", `Upload-Metadata is not valid: ${message}`, { errors: [{ pointer, in: "header", message }] });

/** Splits and decodes the header; every value must be UTF-8 text. */
export function decodeUploadMetadata(header: string | null | undefined): Partial<Record<MetadataKey, string>> {
  if (!header) throw invalid("Upload-Metadata", "send at least `target` and `angle`.");
  if (header.length > MAX_HEADER_LENGTH) throw invalid("Upload-Metadata", `at most ${MAX_HEADER_LENGTH} characters.`);
  const values: Partial<Record<MetadataKey, string>> = {};
  for (const pair of header.split(",")) {
    const [key = "", encoded = "", ...extra] = pair.trim().split(" ");
    if (!(UPLOAD_METADATA_KEYS as readonly string[]).includes(key))
      throw invalid(key || "Upload-Metadata", `unknown key "${key}"; use ${UPLOAD_METADATA_KEYS.join(", ")}.`);
    if (extra.length > 0 || !BASE64.test(encoded)) throw invalid(key, `the value of "${key}" must be base64.`);
    if (key in values) throw invalid(key, `"${key}" is sent twice.`);
    const text = Buffer.from(encoded, "base64").toString("utf8");
    if (text.includes("\uFFFD") || text.includes("\0")) throw invalid(key, `the value of "${key}" is not UTF-8 text.`);
    values[key as MetadataKey] = text;
  }
  return values;
}

export function parseUploadMetadata(header: string | null | undefined): FieldUploadMetadata {
  const values = decodeUploadMetadata(header);
  const target = values.target?.trim() ?? "";
  if (!TARGET.test(target)) throw invalid("target", "`target` must be a mission id (mission_…) or a task id (asg_…).");
  const fields = validateSubmissionFields(values, "header");
  const filename = values.filename?.trim() ? toStorableText(values.filename.trim()).slice(0, 255) : null;
  return {
    ...fields,
    filename,
    target: target.startsWith("asg_") ? { kind: "assignment", assignmentId: target } : { kind: "mission", missionId: target },
  };
}
