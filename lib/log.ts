// Structured logs: one JSON object per line — time, level, msg, then the event's fields — so a log
// collector can index them and a person can grep them. Secrets stay out by construction:
// - fields are flat primitives (no request bodies, rows or query parameters can be passed in);
//   a field whose name says it holds a credential is written as "[redacted]";
// - an error is logged as name, code, message and a few database fields (table, constraint…),
//   never its own properties: a failed query's parameters (a webhook secret, a secret hash) live
//   in the error object and its message, so the message of an error carrying `params` is
//   replaced, and every message is cut before "params:" and scrubbed of secret-shaped text.
// Stack frames (file:line only, no values) are kept for 500s: they say where, not what.

export type LogLevel = "debug" | "info" | "warn" | "error";
type Primitive = string | number | boolean | null | undefined;
export type LogFields = Record<string, Primitive>;

export interface ErrorSummary {
  name: string;
  message: string;
  code?: string;
  /** PostgreSQL's own pointers (no values): which table, column or constraint refused the row. */
  table?: string;
  column?: string;
  constraint?: string;
  /** Up to five stack frames, innermost first. */
  at?: string[];
  cause?: ErrorSummary;
}

const SECRET_FIELD = /secret|password|passwd|token|authorization|cookie|api[_-]?key|hash|signature|private/i;

// Shapes of the secrets this service issues or keeps, and of hashes of them.
const SECRET_TEXT: [RegExp, string][] = [
  // Webhook signing secrets: standard base64 (+ / =) since Standard Webhooks, base64url before.
  [/\b(whsec|odsec)_[A-Za-z0-9+/=_-]{8,}/g, "$1_[redacted]"],
  [/\b(cs|adm|sk|pm_live|pm_test)_[A-Za-z0-9_-]{8,}/g, "$1_[redacted]"],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "[redacted-jwt]"],
  [/\bv1:[A-Za-z0-9_-]+:[A-Za-z0-9_.:-]+/g, "[redacted-sealed]"],
  [/\b[0-9a-f]{40,}\b/gi, "[redacted-hex]"],
];

/** Secret-shaped text replaced, and anything from a query's "params:" on dropped. */
export function redactText(text: string): string {
  let out = text;
  const params = out.search(/\bparams:/i);
  if (params >= 0) out = `${out.slice(0, params).trimEnd()} [params not logged]`;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out.length > 500 ? `${out.slice(0, 500)}…` : out;
}

const stringProp = (value: object, key: string): string | undefined => {
  const v: unknown = (value as Record<string, unknown>)[key];
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
};

export function describeError(error: unknown, depth = 0): ErrorSummary {
  if (!(error instanceof Error)) return { name: typeof error, message: "A non-Error value was thrown." };
  // A query error (drizzle's DrizzleQueryError) carries the SQL and its parameters; what matters
  // is its cause, the database's own error.
  const isQueryError = "params" in error && "query" in error;
  const summary: ErrorSummary = {
    name: isQueryError ? "QueryError" : error.name,
    message: isQueryError ? "A database query failed." : redactText(error.message),
  };
  const code = stringProp(error, "code");
  if (code) summary.code = code;
  for (const key of ["table", "column", "constraint"] as const) {
    const value = stringProp(error, key);
    if (value) summary[key] = value;
  }
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 5)
    .map((line) => line.trim().replace(/^at /, ""));
  if (frames.length > 0 && depth === 0) summary.at = frames;
  if (error.cause !== undefined && depth < 2) summary.cause = describeError(error.cause, depth + 1);
  return summary;
}

export type LogSink = (line: string, level: LogLevel) => void;

const defaultSink: LogSink = (line, level) => {
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
};
let sink: LogSink = defaultSink;

/** Sends log lines elsewhere (tests read them); returns a function that restores the previous sink. */
export function setLogSink(next: LogSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}

function write(level: LogLevel, msg: string, fields: LogFields = {}, error?: unknown): void {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg: redactText(msg) };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || key in entry) continue;
    entry[key] = SECRET_FIELD.test(key) ? "[redacted]" : typeof value === "string" ? redactText(value) : value;
  }
  if (error !== undefined) entry.error = describeError(error);
  sink(JSON.stringify(entry), level);
}

export const log = {
  debug: (msg: string, fields?: LogFields) => write("debug", msg, fields),
  info: (msg: string, fields?: LogFields) => write("info", msg, fields),
  warn: (msg: string, fields?: LogFields, error?: unknown) => write("warn", msg, fields, error),
  error: (msg: string, fields?: LogFields, error?: unknown) => write("error", msg, fields, error),
};
