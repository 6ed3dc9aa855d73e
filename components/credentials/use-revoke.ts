"use client";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";

type RevokeResult = { ok: true } | { ok: false; error: string };

/**
 * The revoke flow both credential lists share: which one is being confirmed, the call, its
 * error, a polite announcement, and focus back on the section heading once its row's button is gone.
 */
export function useRevoke<T extends { id: string; name: string }>(action: (input: { id: string }) => Promise<RevokeResult>) {
  const t = useTranslations("settings.credentials");
  const [revoking, setRevoking] = useState<T | null>(null);
  const [pending, setPending] = useState(false);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);

  function ask(item: T | null) {
    setRevokeError(null);
    setRevoking(item);
  }

  async function revoke() {
    if (!revoking) return;
    setPending(true);
    setRevokeError(null);
    try {
      const result = await action({ id: revoking.id });
      if (!result.ok) {
        setRevokeError(result.error);
        return;
      }
      setAnnouncement(t("revokedAnnouncement", { name: revoking.name }));
      setRevoking(null);
      // The Revoke button that opened the dialog is gone; land after the dialog has closed.
      requestAnimationFrame(() => heading.current?.focus());
    } catch {
      setRevokeError(t("unreachable"));
    } finally {
      setPending(false);
    }
  }

  return { revoking, ask, revoke, pending, revokeError, announcement, setAnnouncement, heading };
}
