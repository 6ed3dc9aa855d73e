// The order interface's shapes as the dashboard receives them: types only, from the generated
// OpenAPI types. The order vocabulary (categories, angles, labels, limits) lives in lib/orders.
import type { components } from "@/lib/api-client/openapi-types";

export type Recurring = components["schemas"]["Recurring"];
/** The generated type says `Recurring & (Record<string, never> | null)` for a nullable reference; this is what it means. */
export type Order = Omit<components["schemas"]["Order"], "recurring"> & { recurring: Recurring | null };
export type OrderStatus = components["schemas"]["OrderStatus"];
export type OrderLocation = components["schemas"]["OrderLocation"];
export type Quote = components["schemas"]["Quote"];
/** A quote before the order exists: the quote, and a recurring order's next cycles as they would fall if confirmed now. */
export type QuotePreview = components["schemas"]["QuotePreview"];
/** POST /orders/feasibility's answer: each location's feasibility, next windows and estimate. */
export type Feasibility = components["schemas"]["Feasibility"];
export type OrderSchedule = components["schemas"]["OrderSchedule"];
export type DeliveredPhoto = components["schemas"]["DeliveredPhoto"];
export type OrderAssignment = components["schemas"]["OrderAssignment"];
export type OrderDraft = components["schemas"]["OrderDraft"];
export type DeliverySecret = components["schemas"]["DeliverySecret"];
