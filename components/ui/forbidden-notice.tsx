import { ROLE_LABELS, type Role } from "@/lib/auth/roles";

/** What a page shows instead of its content when the caller's role is not enough. */
export function ForbiddenNotice({ needed, role, orgName }: { needed: Role; role: Role; orgName: string }) {
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-5 py-4 text-sm text-amber-950">
      <p className="font-semibold">You need the {ROLE_LABELS[needed]} role for this page.</p>
      <p className="mt-1">
        You are a {ROLE_LABELS[role]} in {orgName}. Ask an administrator of the organisation to change your role.
      </p>
    </div>
  );
}
