import type { Plan } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";

/** What authenticated a request: one of the organisation's API keys, or an OAuth access token. */
export type CallerCredential = { kind: "api_key"; keyId: string } | { kind: "access_token"; clientId: string };

/** The caller of an authenticated request, as established by `authenticate` (both interfaces). */
export interface Caller {
  credential: CallerCredential;
  /** The partner organisation; absent for zoomer credentials. */
  orgId?: string;
  /** The organisation's plan; read only where the plan's limit applies (the order interface). */
  plan?: Plan;
  zoomerId?: string;
}

export type AppEnv = {
  Variables: {
    ctx: ServiceContext;
    caller: Caller;
    /** Headers every response of this request must carry, error responses included. */
    responseHeaders: Record<string, string>;
    /** Names this request in logs and in the X-Request-Id response header. */
    requestId: string;
  };
};
