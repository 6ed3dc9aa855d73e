// JSON serialised ahead of the response (a hot read's body, kept with the row it was made from),
// typed by the value it holds so a route sending it stays as checked as one calling c.json.
declare const holds: unique symbol;

/** The JSON text of a `T`. */
export type JsonText<T> = string & { readonly [holds]: T };

export function toJsonText<T>(value: T): JsonText<T> {
  return JSON.stringify(value) as JsonText<T>;
}
