import { useTranslations } from "next-intl";
import { Badge, type Tone } from "@/components/ui/badge";
import type { OrderStatus } from "./types";

const TONES: Record<OrderStatus, Tone> = {
  pending_confirmation: "warning",
  payment_failed: "danger",
  payment_action_required: "warning",
  confirmed: "info",
  in_progress: "info",
  active: "info",
  paused: "neutral",
  fulfilled: "success",
  partially_fulfilled: "warning",
  cancelled: "neutral",
  ended: "neutral",
  expired: "neutral",
};

/** An order's state in words (the API's value is kept in data-status for tests and scripts). */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const t = useTranslations("orders.status");
  return (
    <span data-status={status} className="inline-flex">
      <Badge tone={TONES[status]}>{t(status)}</Badge>
    </span>
  );
}
