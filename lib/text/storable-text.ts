// Text that PostgreSQL can store as given. Two things JavaScript strings may hold cannot be:
// - U+0000: `text` and `jsonb` refuse it (SQLSTATE 22021 / 22P05), so it would surface as a 500;
// - lone UTF-16 surrogates (U+D800–U+DFFF without their pair): not Unicode text at all. Drivers
//   encode them as U+FFFD, so the stored value would silently differ from what was sent.
// What a client typed (JSON, path, query, form fields, token parameters) is refused with a 4xx
// naming the member (I-JSON, RFC 7493 §2.1, asks for the same); what we only read out of a file
// (EXIF strings, upload file names) is cleaned with toStorableText instead.

const NUL = "\u0000";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** Why this string cannot be stored as it is, or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes(NUL)) return "Contains U+0000 (a NUL character), which cannot be stored.";
  const surrogate = LONE_SURROGATE.exec(text);
  if (surrogate) {
    const code = surrogate[0].charCodeAt(0).toString(16).toUpperCase();
    return `Contains U+${code}, half of a UTF-16 surrogate pair without its other half: not valid Unicode text.`;
  }
  return null;
}

export interface UnstorableText {
  /** Where in the value: object keys and array indexes from the root. */
  path: (string | number)[];
  reason: string;
}

/** The first string (value or member name) in a parsed JSON-like value that cannot be stored. */
export function findUnstorableText(value: unknown, path: (string | number)[] = []): UnstorableText | null {
  if (typeof value === "string") {
    const reason = unstorableReason(value);
    return reason ? { path, reason } : null;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      const keyReason = unstorableReason(key);
      if (keyReason) return { path: [...path, key], reason: `The member name ${keyReason.charAt(0).toLowerCase()}${keyReason.slice(1)}` };
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** The text with U+0000 removed and lone surrogates replaced by U+FFFD: for text read from files. */
export function toStorableText(text: string): string {
  return text.replaceAll(NUL, "").replace(LONE_SURROGATES, "\uFFFD");
}
