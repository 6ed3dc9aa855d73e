"use client";
// A confirmation step in a native modal <dialog>: focus stays inside, Escape cancels, focus goes
// back to the button that opened it. Focus starts on Cancel, so Enter alone never destroys
// anything. Shared by the webhooks and API credentials pages (a candidate for components/ui).
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { FormError } from "./states";

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pendingLabel,
  tone = "danger",
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  tone?: "danger" | "primary";
  pending: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations("site.ui");
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      cancel.current?.focus();
    }
    if (!open && d.open) d.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      data-testid="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(e) => {
        // Escape while the request runs would hide its outcome; let it finish.
        e.preventDefault();
        if (!pending) onCancel();
      }}
      onClose={() => {
        if (open && !pending) onCancel();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex flex-col gap-4 p-5">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <div id={`${id}-body`} className="flex flex-col gap-2 text-sm text-slate-700">
          {children}
        </div>
        {error ? <FormError>{error}</FormError> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button ref={cancel} type="button" className={buttonClasses({ variant: "secondary" })} disabled={pending} onClick={onCancel}>
            {t("cancel")}
          </button>
          <Button data-testid="confirm" variant={tone} disabled={pending} aria-busy={pending || undefined} onClick={onConfirm}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
