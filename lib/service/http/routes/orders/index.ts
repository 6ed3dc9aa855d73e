// The order interface (/api/orders/v1): quote, create, read, confirm and pay, cancel, pause and
// resume, and what an order produced (missions, delivered photos, schedule, delivery log), one
// module per resource.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../types";
import type { MountOperation } from "./common";
import { deliveryOperations as delivery } from "./delivery";
import { draftOperations as drafts } from "./drafts";
import { orderOperations as orders } from "./orders";
import { photoOperations as photos } from "./photos";
import { priceOperations as prices } from "./prices";
import { promiseOperations as promise } from "./promise";

// The OpenAPI document lists paths and operations in the order they are mounted, and the published
// document, the generated types and the SDKs follow it: a new operation goes at the end.
const MOUNT_ORDER: readonly MountOperation[] = [
  prices.quoteOrder,
  prices.assessOrderFeasibility,
  orders.createOrder,
  orders.listOrders,
  orders.getOrder,
  orders.confirmOrder,
  orders.authenticateOrderPayment,
  orders.cancelOrder,
  promise.cancelLateOrderLocation,
  promise.reportOrdersOnTime,
  orders.pauseOrder,
  orders.resumeOrder,
  orders.listOrderMissions,
  photos.listOrderPhotos,
  photos.downloadOrderPhotos,
  orders.listOrderAssignments,
  orders.getOrderSchedule,
  delivery.listOrderDeliveries,
  delivery.redeliverOrderDelivery,
  photos.retakeOrderPhoto,
  photos.getOrderPhotoEvidence,
  photos.reviewHeldOrderPhoto,
  prices.getOrderPrices,
  drafts.listOrderDrafts,
  drafts.createOrderDraft,
  drafts.getOrderDraft,
  drafts.saveOrderDraft,
  drafts.placeOrderDraft,
  drafts.deleteOrderDraft,
  delivery.testDeliveryUrl,
  delivery.getDeliverySecret,
  delivery.createDeliverySecret,
  delivery.rotateDeliverySecret,
];

export function registerOrderRoutes(app: OpenAPIHono<AppEnv>) {
  for (const mount of MOUNT_ORDER) mount(app);
}
