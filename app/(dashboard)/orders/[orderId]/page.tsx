import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { DeliveredPhoto, OrderAssignment, OrderSchedule } from "@/components/orders/types";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { ErrorState } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/auth/roles";
import { requirePageAccess } from "@/lib/dashboard/access";
import { OrderPageClient } from "./page-client";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("orders.page");
  return { title: t("metaTitle") };
}

/** Pages of 100, at most `max` of them (an order of 500 locations × 3 angles has 15 of assignments). */
async function allPages<T>(
  fetchPage: (page: number) => Promise<{ data: T[]; meta: { total: number } } | undefined>,
  max = 20,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  for (let page = 1; page <= max; page++) {
    const answer = await fetchPage(page);
    if (!answer) return { items, complete: false };
    items.push(...answer.data);
    if (items.length >= answer.meta.total || answer.data.length === 0) return { items, complete: true };
  }
  return { items, complete: false };
}

export default async function OrderPage({
  params,
  searchParams,
}: {
  params: Promise<{ orderId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { orderId } = await params;
  const page = await requirePageAccess("viewer", `/orders/${orderId}`);
  if (!page.allowed) return <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />;
  if (!/^ord_[A-Za-z0-9]{1,64}$/.test(orderId)) notFound();
  const { api } = page.access;
  const { data: order, error, response } = await api.GET("/api/orders/v1/orders/{id}", { params: { path: { id: orderId } } });
  if (response.status === 404) notFound();
  if (!order) {
    const t = await getTranslations("orders");
    return <ErrorState title={t("page.loadError")}>{error?.detail ?? t("list.noAnswer")}</ErrorState>;
  }

  const path = { id: orderId };
  const [assignments, photos, schedule] = await Promise.all([
    allPages<OrderAssignment>(
      async (p) => (await api.GET("/api/orders/v1/orders/{id}/assignments", { params: { path, query: { page: p, per_page: 100 } } })).data,
    ),
    allPages<DeliveredPhoto>(async (p) => (await api.GET("/api/orders/v1/orders/{id}/photos", { params: { path, query: { page: p, per_page: 100 } } })).data),
    order.recurring
      ? api.GET("/api/orders/v1/orders/{id}/schedule", { params: { path, query: { count: 6 } } }).then((r): OrderSchedule | null => r.data ?? null)
      : Promise.resolve(null),
  ]);
  const placed = (await searchParams).placed === "1";

  return (
    <OrderPageClient
      order={order}
      assignments={assignments.items}
      photos={photos.items}
      incomplete={!assignments.complete || !photos.complete}
      schedule={schedule}
      canEdit={roleAtLeast(page.access.role, "editor")}
      placed={placed}
    />
  );
}
