// The field API's shapes as the phone receives them through /field/api (types only), and where the
// zoomer stands.
import type { components } from "@/lib/api-client/openapi-types";

export type FieldTask = components["schemas"]["FieldAssignment"];
export type TaskVerification = NonNullable<FieldTask["verification"]>;
export type TaskCheck = TaskVerification["ai_checks"][string];

export interface Position {
  lat: number;
  lng: number;
  source: "gps" | "demo";
}

/** Piazza della Repubblica, Florence: the demo missions and the simulator work around it. */
export const DEMO_POSITION: Position = { lat: 43.7712, lng: 11.2555, source: "demo" };
