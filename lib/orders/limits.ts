// The order interface's documented caps, for the API's validation and the dashboard's forms alike.

/** The most locations one order may have. */
export const MAX_LOCATIONS = 500;
/** From here on the wizard's locations step warns that the limit is near. */
export const LOCATIONS_WARNING_AT = 450;
/** The most event dates an event-nights order may list. */
export const MAX_EVENT_DATES = 366;
/** How long a retake reason may be. */
export const RETAKE_REASON_MIN = 3;
export const RETAKE_REASON_MAX = 500;
