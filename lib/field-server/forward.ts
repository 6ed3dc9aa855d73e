import "server-only";
// The field page's one forwarding function (app/field/api/[...path]/route.ts is only its name):
// a request the allow-list takes (./field-routes.ts) goes to the service as the signed-in zoomer
// through `fieldFetch` (lib/field-server/session.ts, the one place the zoomer's token is attached), and
// its answer comes back with the service's headers; anything else is refused without a call.
import { fieldFetch } from "@/lib/field-server/session";
import { fieldAnswer, planFieldRequest } from "./field-routes";

export async function forwardFieldRequest(request: Request): Promise<Response> {
  const plan = planFieldRequest(request);
  if (plan.kind === "refused") return plan.response;
  const answer = await fieldFetch(plan.servicePath, plan.init);
  return fieldAnswer(answer, { route: plan.route, method: plan.init.method ?? request.method });
}
