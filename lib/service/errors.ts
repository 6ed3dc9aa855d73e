// The one error type of the service and its wire form: RFC 9457 problem details plus a stable
// `code`, and `errors[]` (each with a JSON pointer) for validation failures.
import type { ZodError } from "zod";
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface FieldError {
  /** JSON pointer into the request body (RFC 6901), or the query parameter's name for `in: "query"`. */
  pointer: string;
  message: string;
  in?: "body" | "query" | "path" | "header";
  code?: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: string;
  errors?: FieldError[];
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  toBody(instance?: string): ProblemBody {
    return {
      type: `https://photo-missions.dev/problems/${this.code.replaceAll("_", "-")}`,
      title: TITLES[this.status] ?? "Error",
      status: this.status,
      detail: this.message,
      ...(instance ? { instance } : {}),
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/** Where a field error points: a JSON pointer (RFC 6901) into a body, the parameter's name elsewhere. */
export function fieldPointer(segments: (string | number)[], location: FieldError["in"] = "body"): string {
  const parts = segments.map(String);
  return location === "body"
    ? parts.map((s) => `/${s.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("") // "" is the whole document
    : parts.join(".");
}

export const notFound = (what = "resource") => new ApiError(404, "not_found", `No ${what} with that id.`);

export function problemResponse(error: ApiError, instance?: string, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(error.toBody(instance)), {
    status: error.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...extraHeaders, ...error.headers },
  });
}

/**
 * A 422 `validation_failed` from a zod error: one entry per member, pointing at it in the place
 * the value came from. The HTTP layer's validation hook and domain operations that validate stored
 * input (a draft placed as an order) answer the same shape.
 */
export function validationFailed(error: ZodError, location: NonNullable<FieldError["in"]> = "body"): ApiError {
  return new ApiError(422, "validation_failed", "The request is not valid; see errors[].", { errors: toFieldErrors(error, location) });
}

function toFieldErrors(error: ZodError, location: NonNullable<FieldError["in"]>): FieldError[] {
  // zod runs length checks (an array's max items) even on a value of the wrong type (a string):
  // where a member has the wrong type, that is the one thing to say about it.
  const wrongType = new Set(error.issues.filter((i) => i.code === "invalid_type").map((i) => i.path.join("\u0000")));
  const issues = error.issues.filter((i) => i.code === "invalid_type" || !wrongType.has(i.path.join("\u0000")));
  return issues.flatMap((issue): FieldError[] => {
    const path = issue.path.map(String);
    const pointerOf = (segments: string[]) => fieldPointer(segments, location);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        pointer: pointerOf([...path, key]),
        message: `"${key}" cannot be set here: it is read-only or unknown.`,
        in: location,
        code: "unrecognized_field",
      }));
    }
    return [{ pointer: pointerOf(path), message: issue.message, in: location, code: issue.code }];
  });
}
