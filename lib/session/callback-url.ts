// Where a sign-in (or sign-out) may send the browser afterwards: only a path of this site. The one
// check for every place a callbackUrl is read or built — the sign-in page and its form, next-auth's
// `redirect` callback and its routes (app/api/auth/[...nextauth]/route.ts), the dashboard's
// redirect to sign-in — because an open redirect after sign-in is a phishing tool.
//
// The value is parsed as the browser will parse it (WHATWG URL against the public origin, where
// `\` is `/` and tabs and newlines vanish, so `/\evil.example` and `/\t/evil.example` are
// `//evil.example`), and refused unless it stays on that origin. Characters a browser or a later
// decoding step could turn into a different address are refused outright, raw or percent-encoded:
// backslashes, control and invisible characters, and a path that starts with `//`.

/** Where the dashboard's sign-in lands when no (acceptable) callbackUrl was given. */
export const DEFAULT_CALLBACK_PATH = "/missions";

const MAX_LENGTH = 2048;
// In the value as sent: backslash, every control or format character (C0, DEL, C1, zero-width,
// bidi marks, BOM…) and every separator (spaces of all kinds, line and paragraph separators).
const FORBIDDEN_RAW = /[\\\p{C}\p{Z}]/u;
// Once percent-decoded: the same but spaces, which a query may legitimately carry (`?q=a%20b`).
const FORBIDDEN_DECODED = /[\\\p{C}\p{Zl}\p{Zp}]/u;
const SCHEME = /^[a-z][a-z\d+.-]*:/i;
const MAX_DECODINGS = 4;

/** The value and each of its percent-decodings until it stops changing; null when one is malformed. */
function decodings(value: string): string[] | null {
  const forms = [value];
  let current = value;
  for (let i = 0; i < MAX_DECODINGS; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return forms;
    forms.push(next);
    current = next;
  }
  // Still changing after several rounds: nobody writes a return address like that.
  return null;
}

/**
 * The same-origin path (pathname + query + fragment, as the URL parser normalised it) that
 * `value` names when parsed against `origin`, or null when it names anything else or cannot be
 * trusted to mean the same thing everywhere. An absolute URL on exactly `origin` is accepted (next-auth
 * stores its callback that way); everything else must start with a single `/`.
 */
export function sameOriginPath(value: unknown, origin: string): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (!value.startsWith("/") && !SCHEME.test(value)) return null;
  if (FORBIDDEN_RAW.test(value)) return null;
  const forms = decodings(value);
  if (!forms || forms.some((form) => FORBIDDEN_DECODED.test(form) || form.startsWith("//"))) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
  if (url.username || url.password) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/a/..//evil.example` normalises to `//evil.example`: a path that a browser reads as a host.
  const pathForms = decodings(url.pathname);
  if (!pathForms || pathForms.some((form) => !form.startsWith("/") || form.startsWith("//") || FORBIDDEN_RAW.test(form))) return null;
  return path;
}

/** `sameOriginPath`, or `fallback` (a path of this site) when the value is not acceptable. */
export function safeCallbackPath(value: unknown, origin: string, fallback: string = DEFAULT_CALLBACK_PATH): string {
  return sameOriginPath(value, origin) ?? fallback;
}

/** The absolute URL next-auth redirects to: the accepted path on `origin`, else the fallback there. */
export function safeCallbackUrl(value: unknown, origin: string, fallback: string = DEFAULT_CALLBACK_PATH): string {
  return new URL(safeCallbackPath(value, origin, fallback), origin).href;
}

/** The sign-in page's address that returns to `returnTo` (when it is a path of this site) afterwards. */
export function signInPath(returnTo: string, origin: string): string {
  const path = sameOriginPath(returnTo, origin);
  return path ? `/sign-in?callbackUrl=${encodeURIComponent(path)}` : "/sign-in";
}
