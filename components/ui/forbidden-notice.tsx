import { useTranslations } from "next-intl";
import type { Role } from "@/lib/auth/roles";

/** What a page shows instead of its content when the caller's role is not enough. */
export function ForbiddenNotice({ needed, role, orgName }: { needed: Role; role: Role; orgName: string }) {
  const t = useTranslations("dashboard");
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-5 py-4 text-sm text-amber-950">
      <p className="font-semibold">{t("forbidden.needed", { role: t(`shell.roles.${needed}`) })}</p>
      <p className="mt-1">{t("forbidden.yours", { role: t(`shell.roles.${role}`), org: `\u2068${orgName}\u2069` })}</p>
    </div>
  );
}
