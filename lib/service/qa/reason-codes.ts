// Why QA rejected a submission, as codes and figures for the zoomer's page: the same reasons as the
// recorded English `reasons` (lib/service/qa/run-qa.ts), read back from each photo's QA checks.
import type { QaCheck } from "@/lib/schemas/qa";
import type { Localisable } from "@/lib/verification/place-checks";
import { reasonCodesFrom } from "./checks";

export type ReasonCode = Localisable & { photo?: number };

export function submissionReasonCodes(status: string, images: { qa: unknown }[]): ReasonCode[] {
  if (status !== "rejected") return [];
  const perImage = images.map((i) => (Array.isArray(i.qa) ? (i.qa as QaCheck[]) : []));
  const seen = new Set<string>();
  return perImage.flatMap((checks, i) =>
    reasonCodesFrom(checks)
      .map((c): ReasonCode => (images.length > 1 ? { ...c, photo: i + 1 } : c))
      .filter((c) => {
        const key = JSON.stringify(c);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }),
  );
}
