// The operator's key rotation (`npm run admin -- keys rotate`): a new Ed25519 key signs access
// tokens and evidence from now on; the keys it replaces are retired — never used to sign again —
// and stay published in the JWKS for verifying, for as long as the service keeps the photos whose
// evidence they signed (lib/auth/tokens.ts says why that is indefinitely). Evidence already
// delivered is not re-signed: it was stored as made (lib/service/orders/photo-evidence.ts).
import type { ServiceContext } from "@/lib/service/context";

export interface SigningKeysView {
  signing_kid: string;
  keys: ReturnType<ServiceContext["keys"]["describeKeys"]>;
}

export function describeSigningKeys(ctx: ServiceContext): SigningKeysView {
  const keys = ctx.keys.describeKeys();
  return { signing_kid: keys.find((k) => k.signing)?.kid ?? "", keys };
}

export async function rotateSigningKeys(ctx: ServiceContext, { now = new Date() }: { now?: Date } = {}): Promise<SigningKeysView & { retired: string[] }> {
  const { retired } = await ctx.keys.rotate(now);
  return { ...describeSigningKeys(ctx), retired };
}
