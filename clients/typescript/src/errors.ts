// Errors the SDK throws: every API error arrives as RFC 9457 problem details with a stable
// `code` (ProblemError), the token endpoint answers in the OAuth shape (OAuthError).

/** One invalid member of a request, as the API points at it (`/body/bounds/coordinates/0/3`). */
export interface FieldProblem {
  pointer: string;
  message: string;
  in?: string;
  code?: string;
}

/** The body of an `application/problem+json` response. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  /** Stable, machine-readable: switch on this, not on the text. */
  code: string;
  errors?: FieldProblem[];
  [member: string]: unknown;
}

export class PhotoMissionsError extends Error {
  override name = "PhotoMissionsError";
}

/** The API refused the request (4xx) or failed (5xx) after the retries the SDK allows. */
export class ProblemError extends PhotoMissionsError {
  override name = "ProblemError";
  readonly status: number;
  readonly code: string;
  readonly problem: ProblemDetails;
  /** `X-Request-Id` of the response: quote it to support. */
  readonly requestId: string | null;
  /** Seconds the API asked to wait (429, 503), when it said. */
  readonly retryAfterSeconds: number | null;

  constructor(problem: ProblemDetails, requestId: string | null, retryAfterSeconds: number | null) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`);
    this.status = problem.status;
    this.code = problem.code;
    this.problem = problem;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The invalid members of a 422 validation failure (empty otherwise). */
  get fieldErrors(): FieldProblem[] {
    return this.problem.errors ?? [];
  }
}

/** The token endpoint refused the client (RFC 6749 §5.2: invalid_client, invalid_scope, …). */
export class OAuthError extends PhotoMissionsError {
  override name = "OAuthError";
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: number,
  ) {
    super(`${status} ${error}: ${description}`);
  }
}

/** A webhook request whose signature, timestamp or headers do not check out. */
export class WebhookVerificationError extends PhotoMissionsError {
  override name = "WebhookVerificationError";
}

/** A delivered photo's evidence record did not verify (signature, key, header, or the photo's bytes). */
export class EvidenceVerificationError extends PhotoMissionsError {
  override name = "EvidenceVerificationError";
}

/** Reads a non-2xx response into the error it stands for. */
export async function problemFrom(response: Response): Promise<ProblemError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const fromBody = typeof body === "object" && body !== null ? (body as Partial<ProblemDetails>) : {};
  const problem: ProblemDetails = {
    ...fromBody,
    type: typeof fromBody.type === "string" ? fromBody.type : "about:blank",
    title: typeof fromBody.title === "string" ? fromBody.title : response.statusText || `HTTP ${response.status}`,
    status: response.status,
    code: typeof fromBody.code === "string" ? fromBody.code : `http_${response.status}`,
    detail: typeof fromBody.detail === "string" ? fromBody.detail : text.slice(0, 500) || undefined,
  };
  return new ProblemError(problem, response.headers.get("x-request-id"), parseRetryAfter(response.headers.get("retry-after")));
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
