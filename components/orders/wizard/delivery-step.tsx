"use client";
// Step 4 of the order wizard: where the photos go. Always to the dashboard and the API; also, if
// chosen, to a webhook URL of the partner's (the order interface checks it when the order is
// placed: reachable, public, http(s)), signed with the organisation's order-delivery secret —
// which can be created here, shown once. "Send a test" posts a signed test event to the URL now
// and shows what the receiver answered, beside the field.
import { useId, useState } from "react";
import { createDeliverySecret, testDeliveryUrl } from "@/lib/dashboard/order-actions";
import { Button } from "@/components/ui/button";
import { fieldAria, TextInput } from "@/components/ui/field";
import { StepField as Field } from "./step-field";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { FormError } from "@/components/ui/states";
import type { DeliverySecret } from "../types";
import { errorsOfStep, messagesAt, stepProblems, type FieldErrors } from "../wizard-steps";
import { useDraft, type InitialDraft } from "./draft-store";
import { WizardFrame } from "./wizard-frame";

type TestOutcome = { tone: "ok" | "warn" | "error"; text: string };

const TONE_CLASSES: Record<TestOutcome["tone"], string> = {
  ok: "text-emerald-800",
  warn: "text-amber-900",
  error: "text-red-800",
};

export function DeliveryStep({ initial, secret }: { initial: InitialDraft; secret: DeliverySecret | null }) {
  const { draft, saver } = useDraft(initial, "delivery");
  const id = useId();
  const [attempted, setAttempted] = useState(false);
  const [secretExists, setSecretExists] = useState(secret?.exists ?? false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [secretError, setSecretError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<{ url: string; outcome: TestOutcome } | null>(null);
  const url = draft.body.delivery?.webhook_url;
  const toWebhook = url !== undefined;
  const errors: FieldErrors = { ...(attempted ? stepProblems(draft.body, "delivery") : {}), ...errorsOfStep(draft.apiErrors, "delivery") };
  const urlErrors = messagesAt(errors, "/delivery");

  const setUrl = (value: string | undefined) => saver.update((b) => ({ ...b, delivery: value === undefined ? {} : { webhook_url: value } }), ["/delivery"]);

  return (
    <WizardFrame
      step="delivery"
      draft={draft}
      saver={saver}
      onNext={() => {
        setAttempted(true);
        if (Object.keys(stepProblems(draft.body, "delivery")).length > 0) {
          document.getElementById(`${id}-url`)?.focus();
          return false;
        }
        return true;
      }}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-base font-semibold text-slate-900">Where should the photos go?</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          <label
            className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${!toWebhook ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white"}`}
          >
            <input type="radio" name="delivery" checked={!toWebhook} onChange={() => setUrl(undefined)} aria-labelledby={`${id}-dash-name`} aria-describedby={`${id}-dash-desc`} className="mt-0.5 accent-emerald-700" />
            <span>
              <span id={`${id}-dash-name`} className="block font-medium text-slate-900">
                Dashboard only
              </span>
              <span id={`${id}-dash-desc`} className="block text-xs text-slate-600">Review and download them on the order&apos;s page, or read them from the API.</span>
            </span>
          </label>
          <label
            className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${toWebhook ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white"}`}
          >
            <input type="radio" name="delivery" checked={toWebhook} onChange={() => setUrl(url ?? "")} aria-labelledby={`${id}-hook-name`} aria-describedby={`${id}-hook-desc`} className="mt-0.5 accent-emerald-700" />
            <span>
              <span id={`${id}-hook-name`} className="block font-medium text-slate-900">
                Also to my webhook URL
              </span>
              <span id={`${id}-hook-desc`} className="block text-xs text-slate-600">Each location&apos;s verified set is POSTed as photos.delivered, with the order&apos;s other events, signed.</span>
            </span>
          </label>
        </div>
      </fieldset>

      {toWebhook ? (
        <div className="flex max-w-2xl flex-col gap-4">
          <Field
            id={`${id}-url`}
            label="Webhook URL"
            hint="A public https:// address of yours. The order interface checks it when the order is placed; private and loopback addresses are refused."
            errors={urlErrors}
          >
            <TextInput
              type="url"
              inputMode="url"
              value={url ?? ""}
              placeholder="https://example.com/hooks/photos"
              maxLength={2048}
              onChange={(e) => setUrl(e.target.value)}
              {...fieldAria(`${id}-url`, urlErrors, true)}
            />
          </Field>
          <div className="-mt-2 flex flex-col gap-2 sm:flex-row sm:items-start">
            <Button
              variant="secondary"
              size="sm"
              className="shrink-0 self-start"
              disabled={testing || !url?.trim() || !secretExists}
              aria-describedby={`${id}-test-result`}
              onClick={async () => {
                const target = url?.trim() ?? "";
                setTesting(true);
                const result = await testDeliveryUrl({ url: target });
                setTesting(false);
                setTest({
                  url: target,
                  outcome: result.ok
                    ? result.data.ok
                      ? { tone: "ok", text: `Your endpoint answered ${result.data.statusCode} in ${result.data.durationMs} ms.` }
                      : result.data.statusCode !== null
                        ? { tone: "warn", text: `Your endpoint answered ${result.data.statusCode}${result.data.snippet ? `: “${result.data.snippet.slice(0, 160)}”` : ""}. Deliveries count only 2xx as received.` }
                        : { tone: "warn", text: `No answer: ${result.data.error ?? "the request failed"}.` }
                    : { tone: "error", text: Object.values(result.fieldErrors ?? {}).flat()[0] ?? result.error },
                });
              }}
            >
              {testing ? "Sending…" : "Send a test"}
            </Button>
            <p id={`${id}-test-result`} role="status" data-testid="delivery-test-result" data-tone={test && test.url === url?.trim() ? test.outcome.tone : undefined} className={`text-sm ${test && test.url === url?.trim() ? TONE_CLASSES[test.outcome.tone] : "text-slate-600"}`}>
              {test && test.url === url?.trim()
                ? test.outcome.text
                : secretExists
                  ? "Sends one signed order.delivery.test event to this URL now."
                  : "A test is signed like deliveries: create the signing secret first."}
            </p>
          </div>
          {revealed ? (
            <SecretReveal label="New order-delivery secret" title="Your order-delivery secret" secret={revealed} onDone={() => setRevealed(null)}>
              <p>Verify the X-SVC-Signature (or Standard Webhooks) header of each delivery with it.</p>
            </SecretReveal>
          ) : secretExists ? (
            <p className="text-sm text-slate-600">Deliveries are signed with your organisation&apos;s order-delivery secret (created earlier; rotate it through the API).</p>
          ) : (
            <div className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
              <p>
                Your organisation has no order-delivery secret yet. Deliveries to a webhook URL are signed with it, so an order with a URL cannot be placed without one.
              </p>
              {secretError ? <FormError>{secretError}</FormError> : null}
              <Button
                variant="secondary"
                size="sm"
                className="self-start"
                disabled={creating}
                onClick={async () => {
                  setCreating(true);
                  setSecretError(null);
                  const result = await createDeliverySecret({});
                  setCreating(false);
                  if (result.ok) {
                    setSecretExists(true);
                    setRevealed(result.data.secret);
                  } else setSecretError(result.error);
                }}
              >
                {creating ? "Creating…" : "Create the signing secret"}
              </Button>
            </div>
          )}
        </div>
      ) : null}
    </WizardFrame>
  );
}
