// The C2PA-signed copy of a delivered photo: the original's bytes with a manifest store added (a
// new file — the original is never altered and stays byte for byte), signed with the service's
// claim certificate (./provenance-credentials.ts) by @trustnxt/c2pa-ts. Besides the hard binding
// (c2pa.hash.data over the copy), its assertion `com.photo-missions.verification` carries the
// verification result: the claims of the photo's evidence JWS (checks with values and thresholds,
// positions, times) and the JWS itself. Ed25519, as the JWS: the official reader
// (@contentauth/c2pa-wasm) validates it, and trusts it given the root as a trust anchor. About
// 30 ms a photo, so it is made during delivery, before the delivery transaction, like the blurred
// copies. JPEG originals only (c2pa-ts's JPEG asset); others get no copy (provenance null). An
// organisation with privacy_blur gets the blurred copy signed instead of the original.
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { JPEG } from "@trustnxt/c2pa-ts/asset";
import { CoseAlgorithmIdentifier, LocalSigner } from "@trustnxt/c2pa-ts/cose";
import { CBORBox } from "@trustnxt/c2pa-ts/jumbf";
import { Assertion, DataHashAssertion, ManifestStore } from "@trustnxt/c2pa-ts/manifest";
import { images } from "@/lib/db/schema";
import { log } from "@/lib/log";
import type { ServiceContext } from "@/lib/service/context";
import { loadClaimSigner } from "./provenance-credentials";

export const VERIFICATION_ASSERTION_LABEL = "com.photo-missions.verification";
/** The JUMBF content type of CBOR assertions (C2PA, "cbor" + the ISO suffix). */
const CBOR_ASSERTION_UUID = Uint8Array.from(Buffer.from("63626F72001100108000" + "00AA00389B71", "hex"));

type ImageRow = typeof images.$inferSelect;

/** The verification result as a C2PA assertion (CBOR). */
class VerificationAssertion extends Assertion {
  public override label = VERIFICATION_ASSERTION_LABEL;
  public override uuid = CBOR_ASSERTION_UUID;
  constructor(private readonly content: Record<string, unknown>) {
    super();
  }
  public readContentFromJUMBF(): void {
    throw new Error("written only: read it with a C2PA reader");
  }
  public generateJUMBFBoxForContent(): CBORBox {
    const box = new CBORBox();
    box.content = this.content;
    return box;
  }
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Signs `original` (JPEG bytes) with a manifest carrying the evidence; the copy's bytes. */
export async function c2paSignedCopy(
  ctx: ServiceContext,
  { original, evidence, photoId }: { original: Uint8Array; evidence: string; photoId: string },
): Promise<Uint8Array | null> {
  const credentials = await loadClaimSigner({ db: ctx.db, box: ctx.secretBox });
  if (!credentials || !JPEG.canRead(original)) return null;
  const signer = new LocalSigner(credentials.privateKey, CoseAlgorithmIdentifier.Ed25519, credentials.certificate);
  // A copy of the bytes: the asset is edited in place, and the caller's buffer is the original.
  const asset = new JPEG(new Uint8Array(original));
  const store = new ManifestStore();
  const manifest = store.createManifest({ assetFormat: "image/jpeg", instanceID: `xmp:iid:${photoId}`, defaultHashAlgorithm: "SHA-256", signer });
  const hash = DataHashAssertion.create("SHA-256");
  manifest.addAssertion(hash);
  manifest.addAssertion(
    new VerificationAssertion({
      record: JSON.parse(JSON.stringify(decodeJwt(evidence))) as Record<string, unknown>,
      evidence_jws: evidence,
      evidence_typ: "photo-evidence+jwt",
    }),
  );
  await asset.ensureManifestSpace(store.measureSize());
  await hash.updateWithAsset(asset);
  await manifest.sign(signer);
  await asset.writeManifestJUMBF(store.getBytes());
  return asset.getDataRange();
}

/**
 * Makes and stores the signed copy of each image that has none (beside its original); the rows
 * with `c2paKey` set. A failure is logged and leaves that photo without a copy: it never stops a
 * delivery.
 */
export async function makeC2paCopies(ctx: ServiceContext, rows: { image: ImageRow; evidence: string }[]): Promise<Map<string, string>> {
  const made = new Map<string, string>();
  for (const { image, evidence } of rows) {
    if (image.c2paKey) {
      made.set(image.id, image.c2paKey);
      continue;
    }
    try {
      // What the partner receives: for a privacy_blur organisation the faces-blurred copy, never the original's faces.
      const original = await readAll(await ctx.store.read(image.blurredKey ?? image.storageKey));
      const copy = await c2paSignedCopy(ctx, { original, evidence, photoId: image.id });
      if (!copy) continue;
      // Beside the original: …/{image_id}/original.jpg → …/{image_id}/c2pa.jpg.
      const folder = /^(.*)\/original(\.[a-z0-9]+)?$/.exec(image.storageKey)?.[1];
      const key = folder ? `${folder}/c2pa.jpg` : `${image.storageKey}.c2pa.jpg`;
      await ctx.store.putBuffer(key, Buffer.from(copy), { contentType: "image/jpeg" });
      await ctx.db.update(images).set({ c2paKey: key }).where(eq(images.id, image.id));
      made.set(image.id, key);
    } catch (error) {
      log.error("the C2PA copy could not be made", { image_id: image.id }, error);
    }
  }
  return made;
}
