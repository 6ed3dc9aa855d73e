// The type OIDs drizzle reads as the database's text (its node-postgres and PGlite sessions do the
// same): timestamp, timestamptz, interval, date, and numeric[], timestamp[], timestamptz[],
// interval[], date[]. Statements run outside drizzle (queryPrepared) read them the same way.
export const TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
