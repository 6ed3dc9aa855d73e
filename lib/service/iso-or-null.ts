/** A timestamp column as the API shows it: ISO 8601 UTC, or null when unset. */
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
