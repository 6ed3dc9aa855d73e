// The operator's key rotation (`npm run admin -- keys rotate`): a new Ed25519 key signs access
// tokens and evidence from now on; the keys it replaces are retired — never used to sign again —
// and stay published in the JWKS for verifying, for as long as the service keeps the photos whose
// evidence they signed (lib/service/keys/tokens.ts says why that is indefinitely). Evidence already
// delivered is not re-signed: it was stored as made (lib/service/orders/photo-evidence.ts). The C2PA
// claim-signing certificate is renewed too (a new key, under the same root): copies made before
// keep verifying, their certificate travels inside them.
import type { ServiceContext } from "@/lib/service/context";
import { renewClaimCertificate } from "@/lib/service/provenance/provenance-credentials";

export interface SigningKeysView {
  signing_kid: string;
  keys: ReturnType<ServiceContext["keys"]["describeKeys"]>;
}

export function describeSigningKeys(ctx: ServiceContext): SigningKeysView {
  const keys = ctx.keys.describeKeys();
  return { signing_kid: keys.find((k) => k.signing)?.kid ?? "", keys };
}

export async function rotateSigningKeys(
  ctx: ServiceContext,
  { now = new Date() }: { now?: Date } = {},
): Promise<SigningKeysView & { retired: string[]; c2pa_claim_certificate: { serial_number: string; not_after: string } }> {
  const { retired } = await ctx.keys.rotate(now);
  const certificate = await renewClaimCertificate({ db: ctx.db, box: ctx.secretBox }, now);
  return { ...describeSigningKeys(ctx), retired, c2pa_claim_certificate: certificate };
}
