"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { Role } from "@/lib/auth/roles";
import { switchOrganisation } from "@/lib/dashboard/organisation-actions";

export function OrgSwitcher({ current, memberships }: { current: string; memberships: { id: string; name: string; role: Role }[] }) {
  const t = useTranslations("dashboard.shell");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const only = memberships.length === 1 ? memberships[0] : undefined;
  if (only)
    return (
      <span dir="auto" className="max-w-48 truncate text-sm font-medium text-slate-800">
        {only.name}
      </span>
    );
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only">{t("organisation")}</span>
      <select
        value={current}
        disabled={pending}
        onChange={(event) => {
          const orgId = event.target.value;
          startTransition(async () => {
            const result = await switchOrganisation({ orgId });
            if (result.ok) {
              router.push("/missions");
              router.refresh();
            }
          });
        }}
        className="max-w-xs rounded-md border border-slate-300 bg-white py-1.5 ps-2 pe-8 text-sm focus-visible:outline-2 focus-visible:outline-emerald-600"
      >
        {memberships.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
    </label>
  );
}
