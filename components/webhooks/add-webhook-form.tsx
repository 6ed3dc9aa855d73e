"use client";
import { useTranslations } from "next-intl";
import { useId, useRef, useState, type FormEvent } from "react";
import { createWebhook } from "@/lib/dashboard/webhook-actions";
import { Button } from "@/components/ui/button";
import { Field, fieldAria, TextInput } from "@/components/ui/field";
import { EVENT_TYPES } from "./types";
import { eventsToSubmit } from "./webhook-display";
import { FormError } from "@/components/ui/states";

export interface CreatedWebhook {
  id: string;
  url: string;
  secret: string;
}

/** Errors the API reports per JSON pointer, gathered per form field ("/events/0" is the events field). */
function errorsFor(fieldErrors: Record<string, string[]>, field: string): string[] | undefined {
  const messages = Object.entries(fieldErrors)
    .filter(([pointer]) => pointer === `/${field}` || pointer.startsWith(`/${field}/`))
    .flatMap(([, m]) => m);
  return messages.length > 0 ? [...new Set(messages)] : undefined;
}

/**
 * Registers an endpoint: URL, events ("all events", the default, includes ones added later) and a
 * note for the team. The API answers with the signing secret, handed to `onCreated` for the
 * one-time reveal; validation and SSRF refusals come back next to the field concerned.
 */
export function AddWebhookForm({ urlInputId, onCreated }: { urlInputId: string; onCreated: (created: CreatedWebhook) => Promise<void> }) {
  const t = useTranslations("webhooks");
  const [allEvents, setAllEvents] = useState(true);
  const [selected, setSelected] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  const descriptionId = `${id}-description`;
  const eventsErrorId = `${id}-events-error`;

  const urlErrors = errorsFor(fieldErrors, "url");
  const eventErrors = errorsFor(fieldErrors, "events");
  const descriptionErrors = errorsFor(fieldErrors, "description");

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const url = String(data.get("url") ?? "").trim();
    const description = String(data.get("description") ?? "").trim();
    const events = eventsToSubmit(allEvents, selected);
    const local: Record<string, string[]> = {};
    if (!url) local["/url"] = [t("form.urlRequired")];
    if (events.length === 0) local["/events"] = [t("form.eventsRequired")];
    setFormError(null);
    setFieldErrors(local);
    if (Object.keys(local).length > 0) {
      if (local["/url"]) document.getElementById(urlInputId)?.focus();
      return;
    }

    setPending(true);
    try {
      const result = await createWebhook({
        url,
        events,
        ...(description ? { description } : {}),
      });
      if (result.ok) {
        form.current?.reset();
        setAllEvents(true);
        setSelected([]);
        // Pending until the list shows the new endpoint, so the reveal and the list agree.
        await onCreated(result.data);
        return;
      }
      const errors = result.fieldErrors ?? {};
      setFieldErrors(errors);
      if (errorsFor(errors, "url")) document.getElementById(urlInputId)?.focus();
      // A message that belongs to a field is shown there only.
      const known = ["url", "events", "description"].some((f) => errorsFor(errors, f));
      setFormError(known ? null : result.error);
    } catch {
      setFormError(t("unreachable"));
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      ref={form}
      aria-label={t("form.label")}
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-col gap-1">
        <h2 className="text-base font-semibold text-slate-900">{t("form.heading")}</h2>
        <p className="text-sm text-slate-600">{t("form.intro")}</p>
      </div>
      {formError ? <FormError>{formError}</FormError> : null}
      <Field id={urlInputId} label={t("form.url")} hint={t("form.urlHint")} errors={urlErrors}>
        <TextInput
          name="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/hooks/photo-missions"
          maxLength={2048}
          required
          {...fieldAria(urlInputId, urlErrors, true)}
        />
      </Field>

      <fieldset className="flex flex-col gap-2" aria-describedby={eventErrors ? eventsErrorId : undefined}>
        <legend className="mb-1.5 text-sm font-medium text-slate-800">{t("form.events")}</legend>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="all_events"
            checked={allEvents}
            onChange={(e) => setAllEvents(e.target.checked)}
            className="mt-0.5 size-4 rounded border-slate-300 accent-emerald-700 focus-visible:outline-2 focus-visible:outline-emerald-600"
          />
          <span>
            <span className="font-medium text-slate-900">{t("form.allEvents")}</span>
            <span className="block text-xs text-slate-500">{t("form.allEventsHint")}</span>
          </span>
        </label>
        <ul className="ms-6 grid gap-2 border-s border-slate-200 ps-3 sm:grid-cols-2 lg:grid-cols-1">
          {EVENT_TYPES.map((type) => (
            <li key={type}>
              <label className={`flex items-start gap-2 text-sm ${allEvents ? "text-slate-500" : ""}`}>
                <input
                  type="checkbox"
                  name="events"
                  value={type}
                  disabled={allEvents}
                  checked={allEvents || selected.includes(type)}
                  onChange={(e) => setSelected((s) => (e.target.checked ? [...s, type] : s.filter((x) => x !== type)))}
                  className="mt-0.5 size-4 rounded border-slate-300 accent-emerald-700 focus-visible:outline-2 focus-visible:outline-emerald-600"
                />
                <span>
                  <span className={`font-mono text-xs ${allEvents ? "" : "text-slate-900"}`}>{type}</span>
                  <span className={`block text-xs ${allEvents ? "" : "text-slate-500"}`}>{t(`event.${type}`)}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {eventErrors ? (
          <ul id={eventsErrorId} role="alert" className="text-xs font-medium text-red-700">
            {eventErrors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
      </fieldset>

      <Field id={descriptionId} label={t("form.description")} hint={t("form.descriptionHint")} errors={descriptionErrors}>
        <TextInput name="description" maxLength={500} autoComplete="off" {...fieldAria(descriptionId, descriptionErrors, true)} />
      </Field>

      <div>
        <Button type="submit" disabled={pending} aria-busy={pending || undefined}>
          {pending ? t("form.submitting") : t("form.submit")}
        </Button>
      </div>
    </form>
  );
}
