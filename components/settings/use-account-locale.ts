"use client";
// Choosing the signed-in user's language: saved on their account (the settings page and the
// dashboard's switcher share this, so the two never disagree), then the session cookie that carries
// it is re-issued and the page renders again in the new language.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { refreshSession } from "@/lib/session/refresh-session";
import { saveAccountLocale } from "@/lib/dashboard/account-actions";
import type { AppLocale } from "@/lib/i18n/locales";

export function useAccountLocale(): { choose: (locale: AppLocale | null) => void; pending: boolean; failed: boolean } {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [failed, setFailed] = useState(false);
  const choose = (locale: AppLocale | null) =>
    startTransition(async () => {
      setFailed(false);
      const result = await saveAccountLocale({ locale });
      if (!result.ok) {
        setFailed(true);
        return;
      }
      await refreshSession();
      router.refresh();
    });
  return { choose, pending, failed };
}
