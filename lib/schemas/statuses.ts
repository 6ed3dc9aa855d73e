// The states a membership's role, a mission and a submission can be in: plain lists, so the API's
// schemas (and the pages that import them) get them without the database, and the database's
// tables (lib/db/schema.ts, which re-exports them) constrain their columns with them. The roles'
// list is the dashboard's (lib/auth/roles.ts, pure as these), least privileged first.
export { ROLES, type Role } from "../auth/roles";

export const MISSION_STATUSES = ["active", "completed", "cancelled"] as const;
export type MissionStatus = (typeof MISSION_STATUSES)[number];

export const SUBMISSION_STATUSES = ["received", "processing", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
