"use client";
// What an order's mission asks for, in the reader's language: the order it serves, when its photos
// are due (in the place's own time, named), its angles with what each shows, and the light. The
// mission's stored description is the same brief in English for integrators; the page writes it
// from the order instead, and falls back to the description when the order cannot be read.
import { useTranslations } from "next-intl";
import Link from "next/link";
import { OrderTime } from "@/components/orders/order-time";
import type { OrderLocation } from "@/components/orders/types";

export interface OrderMissionBrief {
  orderId: string;
  reference: string | null;
  /** The order's location this mission photographs; null when the order could not be read. */
  location: Pick<OrderLocation, "name" | "time_zone" | "requirements"> | null;
}

export function OrderMissionBriefView({ brief, deadlineAt, description }: { brief: OrderMissionBrief; deadlineAt: string | null; description: string }) {
  const t = useTranslations("missions.detail");
  const vocabulary = useTranslations("vocabulary");
  const { location } = brief;
  const angles = location?.requirements.angles ?? [];
  const timeOfDay = location?.requirements.time_of_day ?? null;
  return (
    <div className="flex max-w-3xl flex-col gap-1 text-sm text-slate-600" data-testid="order-mission-brief">
      <p>
        <Link href={`/orders/${brief.orderId}`} className="underline hover:text-emerald-800 focus-visible:outline-2 focus-visible:outline-emerald-600">
          {brief.reference ? t("forOrderNamed", { reference: brief.reference }) : t("forOrder")}
        </Link>
        {deadlineAt ? (
          <>
            {" · "}
            <span data-testid="mission-due">{t.rich("dueBy", { time: () => <OrderTime iso={deadlineAt} timeZone={location?.time_zone} /> })}</span>
          </>
        ) : null}
      </p>
      {location ? (
        <>
          {angles.length > 0 ? (
            <ul className="flex flex-col gap-0.5" aria-label={t("anglesAsked")}>
              {angles.map((angle) => (
                <li key={angle}>
                  <span className="font-medium text-slate-800">{vocabulary(`angle.${angle}`)}</span> — {vocabulary(`angleHint.${angle}`)}
                </li>
              ))}
            </ul>
          ) : null}
          {timeOfDay ? <p>{vocabulary(`timeOfDay.${timeOfDay}`)}</p> : null}
        </>
      ) : description ? (
        <p className="whitespace-pre-line">{description}</p>
      ) : null}
    </div>
  );
}
