// The service's C2PA signing credentials: its own root (self-signed, Ed25519, 10 years) and a
// claim-signing certificate issued under it (Ed25519; EKU c2pa-kp-claimSigning; at most 366 days),
// both made at first start and kept in the database beside the token keys, private keys sealed the
// same way (lib/auth/secret-box.ts). The rotation command (`npm run admin -- keys rotate`) renews
// the claim certificate; one nearing its end is renewed at start. Certificates are built with
// @peculiar/x509 over Node's WebCrypto (Ed25519), not hand-written ASN.1.
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { provenanceCertificates } from "@/lib/db/schema";
import type { SecretBox } from "@/lib/auth/secret-box";
import { createId } from "@/lib/ids/create-id";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** Where the root is published, beside the token keys under the mission interface's base path (public, like /auth/jwks.json). */
export const TRUST_ANCHOR_PATH = "/auth/c2pa-root.pem";

/** c2pa-kp-claimSigning, the C2PA extended key usage for claim signers (C2PA 2.x, trust model). */
export const C2PA_CLAIM_SIGNING_EKU = "1.3.6.1.4.1.62558.2.1";
const ED25519 = { name: "Ed25519" } as const;
const DAY_MS = 86_400_000;
export const ROOT_VALIDITY_DAYS = 3653;
/** Under the C2PA limit for claim signers (366 days). */
export const CLAIM_VALIDITY_DAYS = 365;
/** A claim certificate with less left than this is renewed at start. */
const RENEW_BEFORE_DAYS = 30;
const ORGANISATION = "Photo Missions";

type Row = typeof provenanceCertificates.$inferSelect;

export interface ClaimSigner {
  certificate: x509.X509Certificate;
  /** PKCS#8 DER. */
  privateKey: Uint8Array;
  root: x509.X509Certificate;
}

interface Options {
  db: Db;
  box: SecretBox;
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ED25519, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function sealedKey(box: SecretBox, key: CryptoKey): Promise<string> {
  return box.seal(Buffer.from(await webcrypto.subtle.exportKey("pkcs8", key)).toString("base64"));
}

function openKey(box: SecretBox, row: Row): Uint8Array {
  return new Uint8Array(Buffer.from(box.open(row.privateKey), "base64"));
}

const serial = () =>
  Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
    .toString("hex")
    .replace(/^[89a-f]/, "1");

async function activeRows(db: Db): Promise<{ root: Row | undefined; claim: Row | undefined }> {
  const rows = await db.select().from(provenanceCertificates).where(isNull(provenanceCertificates.retiredAt)).orderBy(asc(provenanceCertificates.createdAt));
  return { root: rows.find((r) => r.kind === "root"), claim: rows.filter((r) => r.kind === "claim").at(-1) };
}

async function createRoot({ db, box }: Options, now: Date): Promise<Row> {
  const keys = await newKeys();
  const notAfter = new Date(now.getTime() + ROOT_VALIDITY_DAYS * DAY_MS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${ORGANISATION} provenance root, O=${ORGANISATION}`,
    notBefore: now,
    notAfter,
    keys,
    signingAlgorithm: ED25519,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const [row] = await db
    .insert(provenanceCertificates)
    .values({
      id: createId("provenanceCertificate"),
      kind: "root",
      certificatePem: certificate.toString("pem"),
      privateKey: await sealedKey(box, keys.privateKey),
      notBefore: now,
      notAfter,
    })
    .returning();
  if (!row) throw new Error("the provenance root was not stored");
  return row;
}

/** A new claim-signing certificate under the root; the previous ones are retired in the same transaction. */
async function issueClaimCertificate({ db, box }: Options, root: Row, now: Date): Promise<Row> {
  const rootCertificate = new x509.X509Certificate(root.certificatePem);
  const rootKey = await webcrypto.subtle.importKey("pkcs8", openKey(box, root), ED25519, false, ["sign"]);
  const keys = await newKeys();
  const notAfter = new Date(Math.min(now.getTime() + CLAIM_VALIDITY_DAYS * DAY_MS, root.notAfter.getTime()));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${ORGANISATION} claim signing, O=${ORGANISATION}`,
    issuer: rootCertificate.subject,
    notBefore: now,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: rootKey,
    signingAlgorithm: ED25519,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([C2PA_CLAIM_SIGNING_EKU]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(rootCertificate),
    ],
  });
  const values = {
    id: createId("provenanceCertificate"),
    kind: "claim" as const,
    certificatePem: certificate.toString("pem"),
    privateKey: await sealedKey(box, keys.privateKey),
    notBefore: now,
    notAfter,
  };
  return db.transaction(async (tx) => {
    await tx
      .update(provenanceCertificates)
      .set({ retiredAt: now })
      .where(and(eq(provenanceCertificates.kind, "claim"), isNull(provenanceCertificates.retiredAt)));
    const [row] = await tx.insert(provenanceCertificates).values(values).returning();
    if (!row) throw new Error("the claim certificate was not stored");
    return row;
  });
}

/** At start: the root and a claim certificate with time left, made when missing. */
export async function ensureProvenanceCredentials(options: Options, now = new Date()): Promise<void> {
  const { root, claim } = await activeRows(options.db);
  const theRoot = root ?? (await createRoot(options, now));
  if (!claim || claim.notAfter.getTime() - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS) await issueClaimCertificate(options, theRoot, now);
}

/** The rotation command's part: a new claim certificate (and key) under the same root. */
export async function renewClaimCertificate(options: Options, now = new Date()): Promise<{ serial_number: string; not_after: string }> {
  const { root } = await activeRows(options.db);
  const row = await issueClaimCertificate(options, root ?? (await createRoot(options, now)), now);
  const certificate = new x509.X509Certificate(row.certificatePem);
  return { serial_number: certificate.serialNumber, not_after: row.notAfter.toISOString() };
}

/** The current claim signer; null before ensureProvenanceCredentials ran. */
export async function loadClaimSigner({ db, box }: Options): Promise<ClaimSigner | null> {
  const { root, claim } = await activeRows(db);
  if (!root || !claim) return null;
  return { certificate: new x509.X509Certificate(claim.certificatePem), privateKey: openKey(box, claim), root: new x509.X509Certificate(root.certificatePem) };
}

/** The root certificate (PEM): the trust anchor readers add to trust the service's C2PA copies. */
export async function trustAnchorPem(db: Db): Promise<string | null> {
  const { root } = await activeRows(db);
  return root?.certificatePem ?? null;
}
