// A fresh v4 UUID in the browser, for Idempotency-Keys of a page's requests. crypto.randomUUID
// exists only in secure contexts (https, localhost), and a phone on the LAN opens the app over
// plain http: there the UUID is built from getRandomValues, which works everywhere.
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === "function" && globalThis.isSecureContext) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
