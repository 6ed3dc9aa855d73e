import type { ServiceContext } from "@/lib/service/context";
import type { VerifiedToken } from "@/lib/auth/tokens";
import type { OrderCaller } from "./middleware/authenticate-orders";

/** The caller of an authenticated request, as established by the auth middleware. */
export interface Caller {
  token: VerifiedToken;
  clientId: string;
  /** The partner organisation; absent for zoomer credentials. */
  orgId?: string;
  zoomerId?: string;
}

export type AppEnv = {
  Variables: {
    ctx: ServiceContext;
    caller: Caller;
    /** The caller of an order-interface request (API key or token), set by authenticateOrders. */
    orderCaller: OrderCaller;
    /** Headers every response of this request must carry, error responses included. */
    responseHeaders: Record<string, string>;
    /** Names this request in logs and in the X-Request-Id response header. */
    requestId: string;
  };
};
