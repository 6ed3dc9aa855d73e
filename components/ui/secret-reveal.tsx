"use client";
// The one moment a secret reaches the browser: the answer of the action that created or rotated
// it, held in the calling component's state until "Done". It is never put in a query cache, the
// URL or storage, and nothing can fetch it again. Shared by the webhooks and API credentials
// pages (a candidate for components/ui).
import { useTranslations } from "next-intl";
import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

export function SecretReveal({
  label,
  title,
  secret,
  kind = "secret",
  children,
  onDone,
}: {
  /** The region's accessible name, e.g. "New signing secret". */
  label: string;
  title: ReactNode;
  secret: string;
  /** What the secret is called in the copy button and the note (its words: messages/<locale>/settings.json, secretReveal). */
  kind?: "secret" | "clientSecret" | "apiKey";
  children?: ReactNode;
  onDone: () => void;
}) {
  const t = useTranslations("settings.secretReveal");
  const region = useRef<HTMLElement>(null);
  // Bring it into view and to the screen reader's attention: it is shown once, and only now.
  useEffect(() => {
    region.current?.focus();
  }, []);

  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-label={label}
      className="flex flex-col gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
    >
      <h3 className="text-base font-semibold">{title}</h3>
      <p>{t.rich(`note.${kind}`, { strong: (chunks) => <strong className="font-semibold">{chunks}</strong> })}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="revealed-secret"
          className="min-w-0 flex-1 select-all break-all rounded-md border border-emerald-200 bg-white px-3 py-2 font-mono text-xs text-slate-900"
        >
          {secret}
        </code>
        <CopyButton value={secret} label={t(`copy.${kind}`)} />
      </div>
      {children}
      <div>
        <Button variant="secondary" size="sm" onClick={onDone}>
          {t("done")}
        </Button>
      </div>
    </section>
  );
}
