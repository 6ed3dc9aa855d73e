// The one error type of the service and its wire form: RFC 9457 problem details plus a stable
// `code`, and `errors[]` (each with a JSON pointer) for validation failures.
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

  constructor(
    status: number,
    code: string,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
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
