"use client";
// A dispatched location against its promise on the order page: where it stands (in words), by
// when it was promised (on the reader's clock), whether its task was escalated, and — for an
// editor, when it broke its promise — cancelling it free of charge, after a confirmation.
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { cancelLateLocation } from "@/lib/dashboard/order-actions";
import { mayCancelFree } from "@/lib/orders/delivery-promise";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useMounted } from "@/components/ui/use-now";
import { DeliveryStatusBadge } from "./delivery-status-badge";
import { formatDeliverBy } from "./delivery-words";
import type { Order } from "./types";
import { useOrderWords } from "./use-order-words";

type OrderLocation = Order["locations"][number];

export function LocationPromise({ orderId, location, canEdit }: { orderId: string; location: OrderLocation; canEdit: boolean }) {
  const t = useTranslations("orders.promise");
  const { locale } = useOrderWords();
  const mounted = useMounted();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status = location.delivery_status;
  if (!status && !location.cancelled_at) return null;
  const cancellable = canEdit && status !== null && mayCancelFree(status) && !location.cancelled_at && location.cycle_index !== null;

  async function cancel() {
    setPending(true);
    setError(null);
    try {
      const result = await cancelLateLocation({ orderId, locationId: location.location_id, cycleIndex: location.cycle_index ?? 0 });
      if (!result.ok) {
        setError(t("cancelFailed", { reason: result.error }));
        return;
      }
      setOpen(false);
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="flex flex-col gap-1 px-3 pb-2 text-xs text-slate-700" data-testid="location-promise">
      <div className="flex flex-wrap items-center gap-2">
        {status ? <DeliveryStatusBadge status={status} /> : null}
        {location.cancelled_at ? <span className="font-medium text-slate-900">{t("cancelledFree")}</span> : null}
        {location.deliver_by ? (
          <span>
            {t.rich("deliverBy", {
              date: mounted ? formatDeliverBy(location.deliver_by, locale) : "",
              time: (chunks) => <time dateTime={location.deliver_by ?? undefined}>{chunks}</time>,
            })}
          </span>
        ) : null}
      </div>
      {location.escalated && (status === "at_risk" || status === "late") ? (
        <p className="text-amber-900" data-testid="location-escalated">
          {t("escalated")}
        </p>
      ) : null}
      {cancellable ? (
        <>
          <Button variant="secondary" size="sm" className="self-start" onClick={() => setOpen(true)}>
            {t("cancelFree")}
          </Button>
          <ConfirmDialog
            open={open}
            title={t("cancelFreeTitle", { name: location.name })}
            confirmLabel={t("cancelFreeConfirm")}
            pendingLabel={t("cancelFreePending")}
            pending={pending}
            error={error}
            onConfirm={() => void cancel()}
            onCancel={() => setOpen(false)}
          >
            <p>{t("cancelFreeText")}</p>
          </ConfirmDialog>
        </>
      ) : null}
    </div>
  );
}
