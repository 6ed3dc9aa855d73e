"use client";
import { useTranslations } from "next-intl";
import { useId, useRef, useState, type FormEvent } from "react";
import { createApiKey, revokeApiKey } from "@/lib/dashboard/credential-actions";
import { Button } from "@/components/ui/button";
import { Field, fieldAria, TextInput } from "@/components/ui/field";
import { EmptyState, ErrorState, FormError } from "@/components/ui/states";
import { LocalDateTime, RelativeTime } from "@/components/ui/local-time";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RevokeCell } from "./revoke-cell";
import { useRevoke } from "./use-revoke";
import { SecretReveal } from "@/components/ui/secret-reveal";
import type { ApiKey } from "./types";
import { DataTable } from "@/components/ui/data-table";

interface CreatedKey {
  id: string;
  name: string;
  key: string;
}

/** API keys for the order interface: list (prefix only), create (key shown once), revoke. */
export function ApiKeysSection({ apiKeys, loadError, orderApiUrl }: { apiKeys: ApiKey[] | null; loadError: string | null; orderApiUrl: string }) {
  // The new key lives here until "Done" — never in the page data or the URL.
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const { revoking, ask, revoke, pending, revokeError, announcement, heading } = useRevoke<ApiKey>(revokeApiKey);
  const t = useTranslations("settings.credentials");

  return (
    <section aria-labelledby="api-keys-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="api-keys-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          {t("keys.heading")}
        </h2>
        <p className="max-w-3xl text-sm text-slate-600">
          {t.rich("keys.intro", {
            key: "<key>",
            url: () => <code className="break-all font-mono text-xs">{orderApiUrl}</code>,
            code: (chunks) => <code className="font-mono text-xs">{chunks}</code>,
          })}
        </p>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>

      {created ? (
        <SecretReveal
          label={t("keys.revealLabel")}
          title={t("keys.revealTitle", { name: created.name })}
          secret={created.key}
          kind="apiKey"
          onDone={() => setCreated(null)}
        >
          <p>{t.rich("keys.revealBody", { code: (chunks) => <code className="font-mono">{chunks}</code> })}</p>
        </SecretReveal>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0">
          {loadError ? (
            <ErrorState title={t("keys.loadFailed")}>{loadError}</ErrorState>
          ) : !apiKeys || apiKeys.length === 0 ? (
            <EmptyState title={t("keys.emptyTitle")}>{t("keys.emptyBody")}</EmptyState>
          ) : (
            <DataTable
              caption={t("keys.caption")}
              columns={[
                { label: t("name") },
                { label: t("keys.key") },
                { label: t("created") },
                { label: t("keys.lastUsed") },
                { label: <span className="sr-only">{t("statusAndActions")}</span> },
              ]}
            >
              <tbody className="divide-y divide-slate-100">
                {apiKeys.map((key) => (
                  <tr
                    key={key.id}
                    data-testid="api-key-row"
                    data-revoked={key.revoked_at ? "true" : "false"}
                    className={key.revoked_at ? "bg-slate-50/60" : undefined}
                  >
                    <td className={`min-w-32 px-4 py-3 font-medium ${key.revoked_at ? "text-slate-500" : "text-slate-900"}`}>{key.name}</td>
                    <td className="whitespace-nowrap px-4 py-3">
                      <code className="font-mono text-xs text-slate-700" title={t("keys.prefixOnly")}>
                        {key.key_prefix}…
                      </code>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                      <LocalDateTime iso={key.created_at} dateOnly />
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                      {key.last_used_at ? <RelativeTime iso={key.last_used_at} /> : <span className="text-slate-500">{t("keys.never")}</span>}
                    </td>
                    <RevokeCell name={key.name} revokedAt={key.revoked_at} pending={pending} onRevoke={() => ask(key)} />
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
        </div>
        <CreateKeyForm onCreated={setCreated} />
      </div>

      <ConfirmDialog
        open={revoking !== null}
        title={t("keys.confirmTitle")}
        confirmLabel={t("keys.confirmLabel")}
        pendingLabel={t("revoking")}
        pending={pending}
        error={revokeError}
        onConfirm={() => void revoke()}
        onCancel={() => ask(null)}
      >
        <p>
          {t.rich("keys.confirmBody", {
            name: revoking?.name ?? "",
            prefix: revoking?.key_prefix ?? "",
            strong: (chunks) => <strong className="font-semibold text-slate-900">{chunks}</strong>,
            code: (chunks) => <code className="font-mono text-xs">{chunks}</code>,
          })}
        </p>
      </ConfirmDialog>
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedKey) => void }) {
  const t = useTranslations("settings.credentials");
  const [nameErrors, setNameErrors] = useState<string[] | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const nameId = `${useId()}-key-name`;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setFormError(null);
    if (!name) {
      setNameErrors([t("keys.form.nameRequired")]);
      document.getElementById(nameId)?.focus();
      return;
    }
    setNameErrors(undefined);
    setPending(true);
    try {
      const result = await createApiKey({ name });
      if (result.ok) {
        form.current?.reset();
        onCreated({ id: result.data.id, name: result.data.name, key: result.data.key });
        return;
      }
      const errors = result.fieldErrors?.["/name"];
      setNameErrors(errors);
      setFormError(errors ? null : result.error);
    } catch {
      setFormError(t("unreachable"));
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      ref={form}
      aria-label={t("keys.form.label")}
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h3 className="text-base font-semibold text-slate-900">{t("keys.form.heading")}</h3>
      {formError ? <FormError>{formError}</FormError> : null}
      <Field id={nameId} label={t("keys.form.name")} hint={t("keys.form.nameHint")} errors={nameErrors}>
        <TextInput name="name" maxLength={100} autoComplete="off" required {...fieldAria(nameId, nameErrors, true)} />
      </Field>
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending || undefined}>
          {pending ? t("keys.form.submitting") : t("keys.form.submit")}
        </Button>
      </div>
    </form>
  );
}
