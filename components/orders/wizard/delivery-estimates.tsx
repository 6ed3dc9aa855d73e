"use client";
// The review step's delivery promise, before paying: per location, whether it can be done as
// ordered, by when its photos are expected and the history that figure rests on — or, plainly, why
// no estimate can be given yet — and the whole order's estimate (the quote's delivery_estimate).
// Instants are written once mounted, on the reader's clock, never the server's.
import { useTranslations } from "next-intl";
import { useId } from "react";
import { Badge } from "@/components/ui/badge";
import { useMounted } from "@/components/ui/use-now";
import { basisText, ESTIMATE_REASONS, formatDeliverBy, reasonText, zoomersText, type CodedReason, type EstimateFigures } from "../delivery-words";
import type { Feasibility } from "../types";
import { useOrderWords } from "../use-order-words";
import { isolate } from "./wizard-words";

function ExpectedBy({ iso, messageKey }: { iso: string; messageKey: "expectedBy" | "orderExpectedBy" }) {
  const t = useTranslations("orders.delivery");
  const { locale } = useOrderWords();
  const mounted = useMounted();
  return (
    <>
      {t.rich(messageKey, {
        date: mounted ? formatDeliverBy(iso, locale) : "",
        time: (chunks) => (
          <time dateTime={iso} className="font-semibold text-slate-900">
            {chunks}
          </time>
        ),
      })}
    </>
  );
}

function Basis({ estimate }: { estimate: EstimateFigures }) {
  const words = useOrderWords();
  return (
    <p className="text-slate-700" data-testid="estimate-basis">
      {basisText(estimate, words)} {zoomersText(estimate, words)}
    </p>
  );
}

export function DeliveryEstimates({
  feasibility,
  orderEstimate,
  orderReasons,
}: {
  feasibility: Feasibility | null;
  orderEstimate: EstimateFigures | null;
  orderReasons: CodedReason[];
}) {
  const t = useTranslations("orders.delivery");
  const words = useOrderWords();
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-h`}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="delivery-estimates"
    >
      <div className="flex flex-col gap-1">
        <h2 id={`${id}-h`} className="text-base font-semibold text-slate-900">
          {t("heading")}
        </h2>
        <p className="text-slate-600">{t("intro")}</p>
      </div>
      {feasibility ? (
        <ul className="flex flex-col divide-y divide-slate-100 border-y border-slate-100">
          {feasibility.locations.map((location, i) => {
            const blocking = location.reasons.filter((r) => !ESTIMATE_REASONS.has(r.code));
            const noEstimate = location.reasons.filter((r) => ESTIMATE_REASONS.has(r.code));
            return (
              <li
                key={`${location.location_id ?? ""}:${i}`}
                className="flex flex-col gap-1 py-3"
                data-testid="location-estimate"
                data-feasible={location.feasible}
                data-estimate={location.estimate ? "yes" : "no"}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-slate-900">{isolate(location.name)}</span>
                  <Badge tone={location.feasible ? "success" : "danger"}>{location.feasible ? t("feasible") : t("infeasible")}</Badge>
                </div>
                {location.estimate ? (
                  <>
                    <p className="text-slate-800">
                      <ExpectedBy iso={location.estimate.deliver_by} messageKey="expectedBy" />
                    </p>
                    <Basis estimate={location.estimate} />
                  </>
                ) : (
                  <p className="text-slate-800" data-testid="no-estimate">
                    {noEstimate.length > 0 ? noEstimate.map((r) => reasonText(r, words)).join(" ") : t("noEstimate")}
                  </p>
                )}
                {blocking.length > 0 ? (
                  <ul className={`ms-4 list-disc ${location.feasible ? "text-slate-700" : "text-red-900"}`} data-testid="location-reasons">
                    {blocking.map((r) => (
                      <li key={`${r.code}:${JSON.stringify(r.params)}`}>{reasonText(r, words)}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-slate-700">{t("unavailable")}</p>
      )}
      {feasibility || orderEstimate ? (
        <div className="flex flex-col gap-0.5" data-testid="order-estimate">
          <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{t("order")}</span>
          {orderEstimate ? (
            <>
              <p className="text-slate-800">
                <ExpectedBy iso={orderEstimate.deliver_by} messageKey="orderExpectedBy" />
              </p>
              <Basis estimate={orderEstimate} />
            </>
          ) : (
            <p className="text-slate-800">{orderReasons.length > 0 ? orderReasons.map((r) => reasonText(r, words)).join(" ") : t("noEstimate")}</p>
          )}
        </div>
      ) : null}
    </section>
  );
}
