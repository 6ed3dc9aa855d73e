"use client";
// Sending a photo back with a reason, as the order page does in two places (a delivered photo's
// retake, a held photo's review): the reason as typed, the minimum length said in words before
// anything is sent, one request at a time, the API's refusal of the reason shown beside it, and
// the page refreshed once the request went through.
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/dashboard/action-client";
import { RETAKE_REASON_MIN } from "@/lib/orders/limits";

export function useReasonedRequest({ reader }: { reader: "photographer" | "zoomer" }) {
  const router = useRouter();
  const t = useTranslations("orders.photos");
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** Sends the request (with the trimmed reason unless `needsReason` is false); true once it went through. */
  const send = async (
    request: (reason: string) => Promise<ActionResult<unknown>>,
    { needsReason = true }: { needsReason?: boolean } = {},
  ): Promise<boolean> => {
    if (pending) return false;
    const trimmed = reason.trim();
    if (needsReason && trimmed.length < RETAKE_REASON_MIN) {
      setError(t("reasonTooShort", { reader, min: RETAKE_REASON_MIN }));
      return false;
    }
    setPending(true);
    setError(null);
    const result = await request(trimmed);
    setPending(false);
    if (!result.ok) {
      setError(result.fieldErrors?.["/reason"]?.join(" ") ?? result.error);
      return false;
    }
    router.refresh();
    return true;
  };

  return { reason, setReason, pending, error, send };
}
