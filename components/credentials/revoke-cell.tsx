"use client";
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalDateTime } from "@/components/ui/local-time";

/** The last cell of a credential's row: when it was revoked, or the button that asks to revoke it. */
export function RevokeCell({ name, revokedAt, pending, onRevoke }: { name: string; revokedAt: string | null; pending: boolean; onRevoke: () => void }) {
  const t = useTranslations("settings.credentials");
  return (
    <td className="whitespace-nowrap px-4 py-3 text-end">
      {revokedAt ? (
        <span className="inline-flex items-center gap-2 text-xs text-slate-500">
          <Badge>{t("revoked")}</Badge>
          <LocalDateTime iso={revokedAt} dateOnly />
        </span>
      ) : (
        <Button variant="danger" size="sm" aria-label={t("revokeNamed", { name })} disabled={pending} onClick={onRevoke}>
          {t("revoke")}
        </Button>
      )}
    </td>
  );
}
