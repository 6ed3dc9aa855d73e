// The OAuth scopes of the service and what each grants. The spec names the first four; the
// order-interface scopes, submissions:write (zoomer credentials only) and clients:manage
// (dashboard administrators only) are ours.
export const SCOPES = {
  "missions:read": "List and retrieve missions",
  "missions:write": "Create and modify missions",
  "submissions:read": "Access submission data and images, export missions",
  "webhooks:manage": "Register, change and delete webhook endpoints",
  "orders:read": "List and retrieve orders and their photos",
  "orders:write": "Create, confirm and cancel orders",
  "submissions:write": "Submit photos to missions (zoomer credentials only)",
  "clients:manage": "Create and revoke the organisation's API clients and API keys (dashboard administrators only)",
} as const;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];
/** What a partner API client may hold: never zoomer intake, never credential management. */
export const PARTNER_SCOPES = ALL_SCOPES.filter((s) => s !== "submissions:write" && s !== "clients:manage");
export const ZOOMER_SCOPES: Scope[] = ["submissions:write"];

/**
 * What a dashboard user's role in an organisation lets the dashboard do there: the scopes of the
 * dashboard token issued for that role. Each role holds everything the one below it holds;
 * clients:manage is for administrators only, and no role holds submissions:write.
 */
const VIEWER_SCOPES = ["missions:read", "submissions:read", "orders:read"] as const satisfies readonly Scope[];
const EDITOR_SCOPES = [...VIEWER_SCOPES, "missions:write", "orders:write"] as const satisfies readonly Scope[];
const ADMIN_SCOPES = [...EDITOR_SCOPES, "webhooks:manage", "clients:manage"] as const satisfies readonly Scope[];
export const ROLE_SCOPES = { viewer: VIEWER_SCOPES, editor: EDITOR_SCOPES, admin: ADMIN_SCOPES } as const satisfies Record<string, readonly Scope[]>;
export type DashboardRole = keyof typeof ROLE_SCOPES;

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}

/** Parses a space-separated scope string (RFC 6749 §3.3); unknown names are returned separately. */
export function parseScopeString(value: string): { scopes: Scope[]; unknown: string[] } {
  const names = [...new Set(value.split(" ").filter(Boolean))];
  return { scopes: names.filter(isScope), unknown: names.filter((n) => !isScope(n)) };
}
