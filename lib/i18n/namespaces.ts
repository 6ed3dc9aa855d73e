// The catalogue's namespaces: one file per namespace and language (messages/<locale>/<namespace>.json),
// so a translator works on one area at a time, and a page sends its browser only the namespaces it
// uses (the field page never carries the dashboard's words, nor the dashboard the field page's).

/** Every locale has these, in full: the field page and what the server says to a zoomer. */
export const FIELD_NAMESPACES = ["common", "codes", "field"] as const;

/** The dashboard's areas; complete in DASHBOARD_LOCALES, English elsewhere. */
/** `vocabulary` holds the order words both the order pages and the wizard use (categories, angles,
 * time of day, crowd, the schedule's parts), once. */
export const DASHBOARD_NAMESPACES = ["dashboard", "vocabulary", "missions", "orders", "wizard", "webhooks", "settings"] as const;

/** Pages outside both: the home page, sign-in, not-found. Complete in DASHBOARD_LOCALES. */
export const SITE_NAMESPACES = ["site"] as const;

export const NAMESPACES = [...FIELD_NAMESPACES, ...DASHBOARD_NAMESPACES, ...SITE_NAMESPACES] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** What each part of the app sends to its client components. */
export const CLIENT_NAMESPACES = {
  site: ["common", "site"],
  field: ["common", "codes", "field"],
  dashboard: ["common", "codes", "site", ...DASHBOARD_NAMESPACES],
} as const satisfies Record<string, readonly Namespace[]>;
