"use client";
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState, useTransition } from "react";
import type { CameraView } from "@/components/map/layers/camera-geometry";
import { OrderActions } from "@/components/orders/order-actions";
import { OrderCycles } from "@/components/orders/order-cycles";
import { countStates, locationProgress, orderTimeline, type LocationState } from "@/components/orders/order-progress";
import { DeliveryStatusBadge } from "@/components/orders/delivery-status-badge";
import { LocationPromise } from "@/components/orders/location-promise";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import { OrderTimeline } from "@/components/orders/order-timeline";
import { cycleDeliveries, recurringProgressText } from "@/components/orders/recurring-summary";
import { PhotoReview } from "@/components/orders/photo-review";
import type { DeliveredPhoto, Order, OrderAssignment, OrderSchedule } from "@/components/orders/types";
import { HeldPhotos } from "@/components/orders/held-photos";
import { photoEvidence } from "@/components/orders/check-evidence";
import { ORDER_LOCATION_STATE_COLOURS } from "@/components/map/layers/order-layer-styles";
import { Button } from "@/components/ui/button";
import { OrderTime } from "@/components/orders/order-time";
import { useScheduleDescription } from "@/components/orders/use-schedule-description";
import { useOrderWords } from "@/components/orders/use-order-words";
import { PageHeader } from "@/components/ui/page-header";
import { ZipDownloadButton } from "@/components/ui/zip-download-button";

const OrderMap = dynamic(() => import("@/components/orders/order-map").then((m) => m.OrderMap), {
  ssr: false,
  loading: () => <div aria-hidden className="h-full w-full rounded-md bg-slate-100" />,
});

export function OrderPageClient({
  order,
  assignments,
  photos,
  incomplete,
  schedule,
  canEdit,
  placed,
}: {
  order: Order;
  assignments: OrderAssignment[];
  photos: DeliveredPhoto[];
  incomplete: boolean;
  schedule: OrderSchedule | null;
  canEdit: boolean;
  placed: boolean;
}) {
  const router = useRouter();
  const words = useOrderWords();
  const describeSchedule = useScheduleDescription();
  const { t, money } = words;
  const tPage = useTranslations("orders.page");
  const [refreshing, startRefresh] = useTransition();
  const [selectedLocation, setSelectedLocation] = useState<string | null>(null);
  const [hoveredLocation, setHoveredLocation] = useState<string | null>(null);
  const [selectedPhoto, setSelectedPhoto] = useState<string | null>(null);
  const mapFrame = useRef<HTMLDivElement>(null);
  // "Show camera on the map" is pressed in the photo list, far below the map: bring the map into view.
  const showPhotoOnMap = (photoId: string | null) => {
    setSelectedPhoto(photoId);
    if (photoId === null) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    mapFrame.current?.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  };

  const progress = useMemo(
    () =>
      locationProgress(
        order.locations.map((l) => l.location_id),
        assignments,
      ),
    [order.locations, assignments],
  );
  const counts = countStates(progress.values());
  // A recurring order's latest cycle starts at 0 delivered: say so, with the cycle before it.
  const cyclesText = useMemo(() => (order.recurring ? recurringProgressText(cycleDeliveries(assignments), t) : null), [order.recurring, assignments, t]);
  const points = useMemo(
    () =>
      order.locations.map((l) => {
        const state: LocationState = progress.get(l.location_id)?.state ?? "waiting";
        return { id: l.location_id, name: l.name, lat: l.coordinates.lat, lng: l.coordinates.lng, state, stateLabel: t(`states.${state}`) };
      }),
    [order.locations, progress, t],
  );
  const timeline = useMemo(() => orderTimeline(order, assignments, words), [order, assignments, words]);
  const camera = useMemo((): CameraView | null => {
    const photo = photos.find((p) => p.photo_id === selectedPhoto);
    const location = photo && order.locations.find((l) => l.location_id === photo.location_id);
    if (photo && location) {
      const device = photo.metadata.device_evidence?.position ?? photoEvidence(photo.verification.ai_checks).devicePosition;
      return { target: location.coordinates, camera: photo.metadata.gps, directionDeg: photo.metadata.direction_deg ?? null, device };
    }
    // A photo held for review: the positions its authenticity check compared.
    const held = assignments.find((a) => a.photo_id === selectedPhoto && a.review);
    const heldAt = held && order.locations.find((l) => l.location_id === held.location_id);
    if (!held || !heldAt) return null;
    const evidence = photoEvidence(held.verification?.ai_checks);
    return { target: heldAt.coordinates, camera: evidence.exifPosition, directionDeg: null, device: evidence.devicePosition };
  }, [photos, assignments, selectedPhoto, order.locations]);

  const title = order.client_reference ?? t("page.untitled", { id: order.id });
  const charged = money(order.amount_charged_cents, order.quote.currency);

  return (
    <>
      <PageHeader
        title={title}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <OrderStatusBadge status={order.status} />
            {order.delivery_status ? <DeliveryStatusBadge status={order.delivery_status} /> : null}
            <span>{words.vocabulary(`category.${order.category}`)}</span>
            <span>{describeSchedule(order.recurring, order.locations[0]?.coordinates) ?? t("page.once")}</span>
            <span className="font-mono text-xs text-slate-500">{order.id}</span>
          </span>
        }
        actions={
          <>
            <Button variant="ghost" disabled={refreshing} onClick={() => startRefresh(() => router.refresh())}>
              {refreshing ? t("page.refreshing") : t("page.refresh")}
            </Button>
            {canEdit ? <OrderActions order={order} /> : null}
          </>
        }
      />
      {placed && order.status !== "pending_confirmation" ? (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900" data-testid="order-placed">
          {order.amount_charged_cents > 0 ? t("page.placedCharged", { amount: charged }) : t("page.placed")}{" "}
          {order.recurring ? t("page.placedRecurring") : t("page.placedOnce")}
        </p>
      ) : null}
      {order.status_reason && order.status !== "cancelled" ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {order.status_reason}
        </p>
      ) : null}

      <dl className="grid grid-cols-2 gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-4">
        <Fact label={order.recurring ? t("page.perCycle") : t("page.total")} value={money(order.quote.total_cents, order.quote.currency)} />
        <Fact label={t("page.charged")} value={charged} />
        <Fact label={t("page.refunded")} value={money(order.amount_refunded_cents, order.quote.currency)} />
        <Fact
          label={t("page.locationsDelivered")}
          value={cyclesText ?? t("page.deliveredOf", { delivered: counts.delivered, total: order.locations.length })}
          testId="delivered-count"
        />
      </dl>

      <section aria-labelledby="locations-h" className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <h2 id="locations-h" className="sr-only">
          {t("page.locations")}
        </h2>
        <div ref={mapFrame} className="h-[24rem] scroll-mt-4 overflow-hidden rounded-md lg:h-[30rem]">
          <OrderMap
            locations={points}
            selectedId={selectedLocation}
            hoveredId={hoveredLocation}
            camera={camera}
            onSelect={(id) => {
              setSelectedLocation(id);
              setSelectedPhoto(null);
            }}
            onHoverChange={setHoveredLocation}
          />
        </div>
        <ul aria-label={t("page.locationsAndState")} className="flex max-h-[30rem] flex-col gap-1.5 overflow-y-auto" data-testid="order-locations">
          {order.locations.map((location) => {
            const p = progress.get(location.location_id);
            const state = p?.state ?? "waiting";
            const selected = location.location_id === selectedLocation;
            return (
              <li key={location.location_id} data-testid="order-location" data-state={state}>
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => {
                    setSelectedLocation(selected ? null : location.location_id);
                    setSelectedPhoto(null);
                  }}
                  onMouseEnter={() => setHoveredLocation(location.location_id)}
                  onMouseLeave={() => setHoveredLocation(null)}
                  className={`flex w-full flex-col gap-0.5 rounded-md border px-3 py-2 text-start text-sm focus-visible:outline-2 focus-visible:outline-emerald-600 ${
                    selected ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white hover:border-slate-300"
                  }`}
                >
                  <span className="flex items-center gap-2">
                    <span aria-hidden className="inline-block size-3 shrink-0 rounded-full" style={{ backgroundColor: ORDER_LOCATION_STATE_COLOURS[state] }} />
                    <span className="font-medium text-slate-900">{location.name}</span>
                    <span className="ms-auto text-xs text-slate-600">{t(`states.${state}`)}</span>
                  </span>
                  <span className="text-xs text-slate-500">
                    {(location.requirements.angles ?? [])
                      .map((a) => {
                        const angle = p?.angles.find((x) => x.angle === a);
                        if (!angle) return words.vocabulary(`angle.${a}`);
                        return t("page.angleState", {
                          angle: words.vocabulary(`angle.${a}`),
                          state: angle.delivered ? t("taskStatus.delivered") : t(`taskStatus.${angle.status}`),
                          attempt: angle.attempt,
                          late: angle.late ? "late" : "onTime",
                        });
                      })
                      .join(" · ")}
                  </span>
                </button>
                <LocationPromise orderId={order.id} location={location} canEdit={canEdit} />
              </li>
            );
          })}
        </ul>
      </section>

      <HeldPhotos order={order} assignments={assignments} canEdit={canEdit} selectedPhotoId={selectedPhoto} onSelectPhoto={showPhotoOnMap} />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="photos-h" className="flex min-w-0 flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="photos-h" className="text-lg font-semibold text-slate-900">
              {t("page.deliveredPhotos")}
            </h2>
            {photos.length > 0 ? (
              <ZipDownloadButton
                href={`/dashboard-api/orders/${order.id}/photos.zip`}
                label={t("page.downloadAll")}
                progressLabel={t("page.downloadAllProgress")}
                fallbackName={`${order.id}.zip`}
              />
            ) : null}
          </div>
          {incomplete ? <p className="text-xs text-slate-500">{t("page.incomplete", { count: 2000 })}</p> : null}
          <PhotoReview
            order={order}
            photos={photos}
            assignments={assignments}
            canEdit={canEdit}
            selectedPhotoId={selectedPhoto}
            onSelectPhoto={showPhotoOnMap}
            deliveredLocations={counts.delivered}
          />
        </section>
        <div className="flex flex-col gap-6">
          {schedule ? (
            <section aria-labelledby="cycles-h" className="flex flex-col gap-3">
              <h2 id="cycles-h" className="text-lg font-semibold text-slate-900">
                {t("page.cycles")}
              </h2>
              <OrderCycles schedule={schedule} recurring={order.recurring} where={order.locations[0]?.coordinates} />
            </section>
          ) : null}
          <section aria-labelledby="timeline-h" className="flex flex-col gap-3">
            <h2 id="timeline-h" className="text-lg font-semibold text-slate-900">
              {t("page.timeline")}
            </h2>
            <OrderTimeline entries={timeline} />
          </section>
          <p className="text-xs text-slate-500">
            {tPage.rich("created", { time: () => <OrderTime iso={order.created_at} /> })}{" "}
            {order.delivery.webhook_url ? t("page.alsoWebhook", { url: order.delivery.webhook_url }) : t("page.deliveredToDashboard")}{" "}
            <Link href="/orders" className="underline">
              {t("page.allOrders")}
            </Link>
          </p>
        </div>
      </div>
    </>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
