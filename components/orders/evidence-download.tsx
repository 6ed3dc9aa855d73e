// A delivered photo's signed evidence for the reader to keep or forward: the JWS stored at
// delivery (the photo record's `evidence`, the same bytes as in the order's ZIP) as a file, and the
// service's published keys that verify it, and the photo's C2PA-signed copy when it has one. Plain links: the JWS is base64url and dots only, so it
// travels in a data URL as it is (media type application/jose, RFC 7515).
import { useTranslations } from "next-intl";
import { buttonClasses } from "@/components/ui/button";

export const JWKS_PATH = "/.well-known/jwks.json";

export function EvidenceDownload({ photoId, evidence, c2paUrl, what }: { photoId: string; evidence: string; c2paUrl: string | null; what: string }) {
  const t = useTranslations("orders.photos");
  return (
    <>
      <a
        href={`data:application/jose,${evidence}`}
        download={`${photoId}.jws`}
        aria-label={t("downloadEvidenceOf", { what })}
        className={buttonClasses({ variant: "secondary", size: "sm" })}
        data-testid="evidence-download"
      >
        {t("downloadEvidence")}
      </a>
      <a href={JWKS_PATH} download="jwks.json" className={buttonClasses({ variant: "ghost", size: "sm" })}>
        {t("verificationKeys")}
      </a>
      {c2paUrl ? (
        <a
          href={c2paUrl}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t("c2paCopyOf", { what })}
          className={buttonClasses({ variant: "ghost", size: "sm" })}
          data-testid="c2pa-copy"
        >
          {t("c2paCopy")}
        </a>
      ) : null}
    </>
  );
}
