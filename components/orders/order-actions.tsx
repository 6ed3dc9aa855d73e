"use client";
// What an editor can do to an order from its page, each after a confirmation: pay (an order not
// yet paid), pause and resume (recurring), cancel (with what it refunds in words).
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { changeOrderState, payOrder } from "@/lib/dashboard/order-actions";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClasses } from "@/components/ui/field";
import type { Order } from "./types";
import { useOrderWords } from "./use-order-words";

type Action = "pay" | "pause" | "resume" | "cancel";

const CANCELLABLE = new Set(["pending_confirmation", "payment_action_required", "payment_failed", "confirmed", "in_progress", "active", "paused"]);

export function availableActions(status: Order["status"]): Action[] {
  const actions: Action[] = [];
  if (status === "pending_confirmation" || status === "payment_failed") actions.push("pay");
  if (status === "active") actions.push("pause");
  if (status === "paused") actions.push("resume");
  if (CANCELLABLE.has(status)) actions.push("cancel");
  return actions;
}

export function OrderActions({ order }: { order: Order }) {
  const router = useRouter();
  const t = useTranslations("orders.actions");
  const { money } = useOrderWords();
  const [open, setOpen] = useState<Action | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const actions = availableActions(order.status);
  if (actions.length === 0) return null;
  const total = money(order.quote.total_cents, order.quote.currency);

  const dialogs: Record<Action, { button: string; title: string; confirm: string; pending: string; tone: "danger" | "primary"; body: React.ReactNode }> = {
    pay: {
      button: t("pay.button", { amount: total }),
      title: t("pay.title"),
      confirm: t("pay.button", { amount: total }),
      pending: t("pay.pending"),
      tone: "primary",
      body: <p>{order.recurring ? t("pay.bodyRecurring", { amount: total }) : t("pay.body", { amount: total })}</p>,
    },
    pause: {
      button: t("pause.button"),
      title: t("pause.title"),
      confirm: t("pause.confirm"),
      pending: t("pause.pending"),
      tone: "primary",
      body: <p>{t("pause.body")}</p>,
    },
    resume: {
      button: t("resume.button"),
      title: t("resume.title"),
      confirm: t("resume.confirm"),
      pending: t("resume.pending"),
      tone: "primary",
      body: <p>{t("resume.body")}</p>,
    },
    cancel: {
      button: t("cancel.button"),
      title: t("cancel.title"),
      confirm: t("cancel.confirm"),
      pending: t("cancel.pending"),
      tone: "danger",
      body: (
        <>
          <p>{order.recurring ? t("cancel.bodyRecurring") : t("cancel.body")}</p>
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
            {t("cancel.reason")}
            <input value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} className={inputClasses} />
          </label>
        </>
      ),
    },
  };

  async function run(action: Action) {
    setPending(true);
    setError(null);
    const result =
      action === "pay"
        ? await payOrder({ orderId: order.id })
        : await changeOrderState({
            orderId: order.id,
            action,
            updatedAt: order.updated_at,
            ...(action === "cancel" && reason.trim() ? { reason: reason.trim() } : {}),
          });
    setPending(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setOpen(null);
    router.refresh();
  }

  const current = open ? dialogs[open] : null;
  return (
    <>
      {actions.map((a) => (
        <Button key={a} variant={a === "cancel" ? "danger" : a === "pay" ? "primary" : "secondary"} onClick={() => setOpen(a)}>
          {dialogs[a].button}
        </Button>
      ))}
      <ConfirmDialog
        open={current !== null}
        title={current?.title ?? ""}
        confirmLabel={current?.confirm ?? ""}
        pendingLabel={current?.pending ?? ""}
        tone={current?.tone}
        pending={pending}
        error={error}
        onCancel={() => {
          setOpen(null);
          setError(null);
        }}
        onConfirm={() => {
          if (open) void run(open);
        }}
      >
        {current?.body}
      </ConfirmDialog>
    </>
  );
}
