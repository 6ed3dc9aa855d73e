"use client";
// Step 4 of the order wizard: where the photos go. Always to the dashboard and the API; also, if
// chosen, to a webhook URL of the partner's (the order interface checks it when the order is
// placed: reachable, public, http(s)), signed with the organisation's order-delivery secret —
// which can be created here, shown once. "Send a test" posts a signed test event to the URL now
// and shows what the receiver answered, beside the field.
import { useTranslations } from "next-intl";
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
import { useProblemWords } from "./wizard-words";
import { WizardFrame } from "./wizard-frame";

type TestOutcome = { tone: "ok" | "warn" | "error"; text: string };

const TONE_CLASSES: Record<TestOutcome["tone"], string> = {
  ok: "text-emerald-800",
  warn: "text-amber-900",
  error: "text-red-800",
};

export function DeliveryStep({ initial, secret }: { initial: InitialDraft; secret: DeliverySecret | null }) {
  const { draft, saver } = useDraft(initial, "delivery");
  const t = useTranslations("wizard.delivery");
  const wordProblems = useProblemWords();
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
  const errors: FieldErrors = { ...(attempted ? wordProblems(stepProblems(draft.body, "delivery")) : {}), ...errorsOfStep(draft.apiErrors, "delivery") };
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
        <legend className="mb-2 text-base font-semibold text-slate-900">{t("heading")}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          <label
            className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${!toWebhook ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white"}`}
          >
            <input
              type="radio"
              name="delivery"
              checked={!toWebhook}
              onChange={() => setUrl(undefined)}
              aria-labelledby={`${id}-dash-name`}
              aria-describedby={`${id}-dash-desc`}
              className="mt-0.5 accent-emerald-700"
            />
            <span>
              <span id={`${id}-dash-name`} className="block font-medium text-slate-900">
                {t("dashboardOnly")}
              </span>
              <span id={`${id}-dash-desc`} className="block text-xs text-slate-600">
                {t("dashboardOnlyHint")}
              </span>
            </span>
          </label>
          <label
            className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${toWebhook ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white"}`}
          >
            <input
              type="radio"
              name="delivery"
              checked={toWebhook}
              onChange={() => setUrl(url ?? "")}
              aria-labelledby={`${id}-hook-name`}
              aria-describedby={`${id}-hook-desc`}
              className="mt-0.5 accent-emerald-700"
            />
            <span>
              <span id={`${id}-hook-name`} className="block font-medium text-slate-900">
                {t("webhook")}
              </span>
              <span id={`${id}-hook-desc`} className="block text-xs text-slate-600">
                {t("webhookHint")}
              </span>
            </span>
          </label>
        </div>
      </fieldset>

      {toWebhook ? (
        <div className="flex max-w-2xl flex-col gap-4">
          <Field id={`${id}-url`} label={t("url")} hint={t("urlHint")} errors={urlErrors}>
            <TextInput
              type="url"
              inputMode="url"
              value={url ?? ""}
              placeholder="https://example.com/hooks/photos"
              dir="ltr"
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
                      ? { tone: "ok", text: t("testOk", { status: result.data.statusCode ?? "", ms: result.data.durationMs }) }
                      : result.data.statusCode !== null
                        ? {
                            tone: "warn",
                            text: result.data.snippet
                              ? t("testStatusSnippet", { status: result.data.statusCode, snippet: result.data.snippet.slice(0, 160) })
                              : t("testStatus", { status: result.data.statusCode }),
                          }
                        : { tone: "warn", text: t("testNoAnswer", { error: result.data.error ?? t("testFailed") }) }
                    : { tone: "error", text: Object.values(result.fieldErrors ?? {}).flat()[0] ?? result.error },
                });
              }}
            >
              {testing ? t("sending") : t("sendTest")}
            </Button>
            <p
              id={`${id}-test-result`}
              role="status"
              data-testid="delivery-test-result"
              data-tone={test && test.url === url?.trim() ? test.outcome.tone : undefined}
              className={`text-sm ${test && test.url === url?.trim() ? TONE_CLASSES[test.outcome.tone] : "text-slate-600"}`}
            >
              {test && test.url === url?.trim() ? test.outcome.text : secretExists ? t("testHint") : t("testNeedsSecret")}
            </p>
          </div>
          {revealed ? (
            <SecretReveal label={t("secretLabel")} title={t("secretTitle")} secret={revealed} onDone={() => setRevealed(null)}>
              <p>{t("secretUse")}</p>
            </SecretReveal>
          ) : secretExists ? (
            <p className="text-sm text-slate-600">{t("secretExists")}</p>
          ) : (
            <div className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
              <p>{t("noSecret")}</p>
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
                {creating ? t("creating") : t("createSecret")}
              </Button>
            </div>
          )}
        </div>
      ) : null}
    </WizardFrame>
  );
}
