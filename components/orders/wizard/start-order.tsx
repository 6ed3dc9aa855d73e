"use client";
// Starting a draft and discarding one, from the "new order" page. A start carries a request key
// of its own, so a double click opens one draft, not two.
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { discardOrderDraft, startOrderDraft } from "@/lib/dashboard/order-actions";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/states";
import { newRequestKey } from "@/lib/ids/request-key";
import { stepHref } from "../wizard-steps";

export function StartOrderButton({ label }: { label?: string }) {
  const t = useTranslations("wizard.start");
  const router = useRouter();
  const key = useRef<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-2">
      <Button
        disabled={pending}
        onClick={async () => {
          key.current ??= newRequestKey();
          setPending(true);
          setError(null);
          const result = await startOrderDraft({ requestKey: key.current });
          if (result.ok) {
            router.push(stepHref("locations", result.data.id));
            return;
          }
          setPending(false);
          setError(result.error);
        }}
      >
        {pending ? t("starting") : (label ?? t("button"))}
      </Button>
      {error ? <FormError>{error}</FormError> : null}
    </div>
  );
}

export function DiscardDraftButton({ id, name }: { id: string; name: string }) {
  const t = useTranslations("wizard.start");
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={t("discardLabel", { name })}>
        {t("discard")}
      </Button>
      <ConfirmDialog
        open={open}
        title={t("discardTitle")}
        confirmLabel={t("discardConfirm")}
        pendingLabel={t("discarding")}
        pending={pending}
        error={error}
        onCancel={() => {
          setOpen(false);
          setError(null);
        }}
        onConfirm={async () => {
          setPending(true);
          const result = await discardOrderDraft({ id });
          setPending(false);
          if (!result.ok) {
            setError(result.error);
            return;
          }
          setOpen(false);
          router.refresh();
        }}
      >
        <p>{t("discardBody", { name })}</p>
      </ConfirmDialog>
    </>
  );
}
