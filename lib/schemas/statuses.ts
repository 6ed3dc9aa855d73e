// The states a membership's role, a mission and a submission can be in: plain lists with no imports,
// so the API's schemas (and the pages that import them) get them without the database, and the
// database's tables (lib/db/schema.ts, which re-exports them) constrain their columns with them.
export const ROLES = ["admin", "editor", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const MISSION_STATUSES = ["active", "completed", "cancelled"] as const;
export type MissionStatus = (typeof MISSION_STATUSES)[number];

export const SUBMISSION_STATUSES = ["received", "processing", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
