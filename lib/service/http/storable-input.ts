// Refuses input text PostgreSQL cannot store (U+0000, lone surrogates; see lib/text/storable-text)
// with a 422 naming the member, before it reaches a query. Called by the shared layers every
// input passes through: the validation hook (JSON, query, path, form and header values of every
// createRoute route), the JSON body guard, and the multipart parser; the token endpoint, which
// answers in OAuth's shape, checks its parameters with unstorableReason itself.
import { findUnstorableText } from "@/lib/text/storable-text";
import { ApiError, fieldPointer, type FieldError } from "@/lib/service/errors";

export function assertStorableInput(value: unknown, location: NonNullable<FieldError["in"]>, basePath: (string | number)[] = []): void {
  const found = findUnstorableText(value, basePath);
  if (!found) return;
  const pointer = fieldPointer(found.path, location);
  throw new ApiError(422, "validation_failed", "The request is not valid; see errors[].", {
    errors: [{ pointer, message: found.reason, in: location, code: "invalid_text" }],
  });
}
