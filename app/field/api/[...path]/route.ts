// /field/api/* – the field page's one way to the service: every method goes to the same forwarding
// function, whose allow-list (lib/field-server/field-routes.ts) names the paths and methods the
// page may use (tus uploads, multipart photo posts, lists, verdicts, take/release) and refuses the rest.
import { forwardFieldRequest } from "@/lib/field-server/forward";

export const dynamic = "force-dynamic";

export {
  forwardFieldRequest as GET,
  forwardFieldRequest as HEAD,
  forwardFieldRequest as POST,
  forwardFieldRequest as PUT,
  forwardFieldRequest as PATCH,
  forwardFieldRequest as DELETE,
  forwardFieldRequest as OPTIONS,
};
