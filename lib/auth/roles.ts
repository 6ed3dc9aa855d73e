// Dashboard roles, from least to most privileged. Each page and action names the least role it
// needs; the API enforces the same boundary again through the scopes of the role's token.
export const ROLES = ["viewer", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}

export const ROLE_LABELS: Record<Role, string> = { viewer: "Viewer", editor: "Editor", admin: "Administrator" };
