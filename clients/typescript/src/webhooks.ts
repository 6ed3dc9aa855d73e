// Verifies a webhook request as it arrived (raw bytes, headers) before anything trusts it. The
// service signs every request twice: Standard Webhooks (`webhook-id`, `webhook-timestamp`,
// `webhook-signature`: HMAC-SHA256 over `id.timestamp.body`, which binds the timestamp, so a
// captured request cannot be replayed later) and the spec's `X-SVC-Signature` (hex HMAC-SHA256 of
// the body). While a rotated-out secret still signs, both secrets' signatures are sent: pass the
// old and the new secret and either verifies. Comparisons go through WebCrypto's HMAC verify,
// which takes the same time however many bytes match. Uses only WebCrypto: Node 20+, Deno, Bun,
// edge runtimes.
//
// Keys, as the service signs: `webhook-signature` is keyed as Standard Webhooks says — with the
// bytes a `whsec_` + base64 secret decodes to (every secret made or rotated since the service
// followed the spec exactly). Secrets made before (`whsec_…`/`odsec_…` in base64url) keyed it
// with their characters, as they still do until rotated; a secret string alone does not say which
// it is (an old base64url secret can decode as base64 too), so both keys are tried — each needs the
// secret. `X-SVC-Signature` is keyed with the secret's characters, whatever its age.
import { WebhookVerificationError } from "./errors.js";
import type { components } from "./generated/openapi.js";

type Schemas = components["schemas"];

/** Every event the service sends, by name, as the OpenAPI document describes it. */
export interface WebhookEvents {
  "mission.created": Schemas["MissionCreatedEvent"];
  "mission.completed": Schemas["MissionCompletedEvent"];
  "submission.received": Schemas["SubmissionReceivedEvent"];
  "submission.approved": Schemas["SubmissionApprovedEvent"];
  "submission.rejected": Schemas["SubmissionRejectedEvent"];
  "photos.delivered": Schemas["PhotosDeliveredEvent"];
  "photo.held_for_review": Schemas["PhotoHeldForReviewEvent"];
  "webhook.test": Schemas["TestEvent"];
}

/** The envelope every event shares; narrow on `event`. */
export type WebhookEvent = WebhookEvents[keyof WebhookEvents] | { id: string; event: string; timestamp: string; data: Record<string, unknown> };

export interface VerifyWebhookOptions {
  /** The body exactly as received (never re-serialised JSON). */
  payload: string | Uint8Array;
  /** The request's headers (a Headers object, or Node's IncomingHttpHeaders). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The endpoint's secret; during a rotation, the new and the old one. */
  secrets: string | readonly string[];
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, in milliseconds (tests). */
  now?: number;
}

const encoder = new TextEncoder();

function header(headers: VerifyWebhookOptions["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function fromBase64(value: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function fromHex(value: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(value)) return null;
  return Uint8Array.from(value.match(/../g) ?? [], (byte) => parseInt(byte, 16));
}

const hmacKey = (bytes: Uint8Array) => crypto.subtle.importKey("raw", new Uint8Array(bytes), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);

/** The bytes a Standard Webhooks secret (`whsec_` + standard base64) stands for, or null when it is not one. */
function standardSecretBytes(secret: string): Uint8Array | null {
  if (!secret.startsWith("whsec_")) return null;
  const encoded = secret.slice("whsec_".length);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return null;
  const bytes = fromBase64(encoded);
  return bytes && bytes.length > 0 ? bytes : null;
}

/** The keys of `webhook-signature` a secret may sign with: its decoded bytes (Standard Webhooks), and its characters (secrets made before). */
const standardKeys = (secrets: readonly string[]) =>
  secrets.flatMap((secret) => [standardSecretBytes(secret), encoder.encode(secret)].filter((key): key is Uint8Array => key !== null));

/** The key of `X-SVC-Signature`: the secret's characters. */
const svcKeys = (secrets: readonly string[]) => secrets.map((secret) => encoder.encode(secret));

async function anyVerifies(keys: readonly Uint8Array[], signatures: Uint8Array[], data: Uint8Array): Promise<boolean> {
  let verified = false;
  // Every pair is checked (no early return), so timing does not tell which secret matched.
  for (const bytes of keys) {
    const key = await hmacKey(bytes);
    for (const signature of signatures) {
      if (await crypto.subtle.verify("HMAC", key, new Uint8Array(signature), new Uint8Array(data))) verified = true;
    }
  }
  return verified;
}

/**
 * Checks the signatures and the timestamp and returns the parsed event; throws a
 * WebhookVerificationError (answer 400 or 401 and do nothing) otherwise.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const secrets = typeof options.secrets === "string" ? [options.secrets] : [...options.secrets];
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) throw new WebhookVerificationError("No webhook secret to verify with.");
  const body = typeof options.payload === "string" ? encoder.encode(options.payload) : options.payload;

  const id = header(options.headers, "webhook-id");
  const timestamp = header(options.headers, "webhook-timestamp");
  const signature = header(options.headers, "webhook-signature");
  if (!id || !timestamp || !signature) throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature.");
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not Unix seconds.");
  const tolerance = options.toleranceSeconds ?? 300;
  const age = Math.floor((options.now ?? Date.now()) / 1000) - Number(timestamp);
  if (Math.abs(age) > tolerance) throw new WebhookVerificationError(`The request is ${age} s old; more than ${tolerance} s from now.`);

  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const standard = signature
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => fromBase64(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array => bytes !== null);
  if (!(await anyVerifies(standardKeys(secrets), standard, signed))) throw new WebhookVerificationError("No webhook-signature matches the secret(s).");

  // The spec's signature too, when sent: both must hold.
  const svc = [header(options.headers, "x-svc-signature"), header(options.headers, "x-svc-signature-previous")]
    .filter((value): value is string => value !== undefined)
    .map(fromHex)
    .filter((bytes): bytes is Uint8Array => bytes !== null);
  if (header(options.headers, "x-svc-signature") !== undefined && !(await anyVerifies(svcKeys(secrets), svc, body))) {
    throw new WebhookVerificationError("X-SVC-Signature does not match the secret(s).");
  }

  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("The payload is not JSON.");
  }
}
