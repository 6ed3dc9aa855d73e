// Where an order or a location stands against its promise, in words (the colour only repeats
// them): on track, at risk, late, delivered on time, delivered late. The API's value is kept in
// data-delivery-status for tests and scripts.
import { useTranslations } from "next-intl";
import { Badge, type Tone } from "@/components/ui/badge";
import type { DeliveryStatus } from "@/lib/orders/vocabulary";

const TONES: Record<DeliveryStatus, Tone> = {
  on_track: "info",
  at_risk: "warning",
  late: "danger",
  delivered_on_time: "success",
  delivered_late: "warning",
};

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const t = useTranslations("orders.promise.status");
  return (
    <span data-delivery-status={status} className="inline-flex">
      <Badge tone={TONES[status]}>{t(status)}</Badge>
    </span>
  );
}
