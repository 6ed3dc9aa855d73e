// The prefixes of public ids, one per kind of object, and the zod schema that recognises an id of
// one kind. Dependency-free (no node:crypto), so forms and server actions validate ids with the
// same rule the service mints them by (./create-id).
import { z } from "zod";

export const ID_PREFIXES = {
  org: "org", // partner organisation
  user: "user", // dashboard user (partner staff)
  client: "cli", // OAuth client (partner or zoomer credentials)
  apiKey: "key", // order-interface API key
  zoomer: "usr", // field contributor — the spec's zoomer_id prefix
  mission: "mission", // mission created through the mission interface
  orderMission: "mis", // mission dispatched from an order (spec)
  submission: "sub",
  image: "img",
  event: "evt",
  webhook: "wh",
  delivery: "dlv",
  attempt: "att",
  job: "job",
  order: "ord",
  location: "loc", // order location, when the caller did not choose its own loc_ id
  payment: "pay", // a charge of an order (or of one cycle of a recurring order)
  refund: "re", // money returned from a charge
  assignment: "asg", // one angle of one dispatched location, for a zoomer to shoot
  draft: "drf", // an order being put together in the dashboard's wizard
  fieldUpload: "upl", // a resumable (tus) photo upload from the field app, until its submission is recorded
  signingKey: "kid",
  provenanceCertificate: "crt", // the C2PA root or a claim-signing certificate (lib/service/provenance)
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

// What the service mints: the prefix, "_", 26 Crockford base32 characters. Ids that partners
// choose (loc_ of an order's locations) have their own, wider rule in lib/orders.
const SUFFIX = "[0-9a-hjkmnp-tv-z]{26}";

/** An id of one kind, e.g. `idSchema("ord")` for orders: refuses anything else with a plain message. */
export function idSchema(prefix: IdPrefix, noun = "id") {
  return z.string().regex(new RegExp(`^${prefix}_${SUFFIX}$`), `Not a valid ${noun}.`);
}
