"use client";
import { useTranslations } from "next-intl";
import { useId, useRef, useState, type FormEvent } from "react";
import { createApiClient, revokeApiClient } from "@/lib/dashboard/credential-actions";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, fieldAria, TextInput } from "@/components/ui/field";
import { EmptyState, ErrorState, FormError } from "@/components/ui/states";
import { LocalDateTime } from "@/components/ui/local-time";
import { PARTNER_SCOPES, isScope, type Scope } from "@/lib/auth/scopes";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RevokeCell } from "./revoke-cell";
import { useRevoke } from "./use-revoke";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { tokenCurl } from "./token-curl";
import type { ApiClient } from "./types";
import { DataTable } from "@/components/ui/data-table";

/** Read access to missions and submissions: what most integrations start with. */
const DEFAULT_SCOPES: Scope[] = ["missions:read", "submissions:read"];

interface CreatedClient {
  id: string;
  name: string;
  scopes: string[];
  clientSecret: string;
}

/** Partner API clients (OAuth 2.0 client credentials for the mission interface): list, create, revoke. */
export function ApiClientsSection({ clients, loadError, tokenUrl }: { clients: ApiClient[] | null; loadError: string | null; tokenUrl: string }) {
  // The new client's secret lives here until "Done" — never in the page data or the URL.
  const [created, setCreated] = useState<CreatedClient | null>(null);
  const { revoking, ask, revoke, pending, revokeError, announcement, heading } = useRevoke<ApiClient>(revokeApiClient);
  const t = useTranslations("settings.credentials");

  return (
    <section aria-labelledby="api-clients-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="api-clients-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          {t("clients.heading")}
        </h2>
        <p className="max-w-3xl text-sm text-slate-600">
          {t.rich("clients.intro", {
            code: (chunks) => <code className="font-mono text-xs">{chunks}</code>,
            url: () => <code className="break-all font-mono text-xs">{tokenUrl}</code>,
          })}
        </p>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>

      {created ? (
        <SecretReveal
          label={t("clients.revealLabel")}
          title={t("clients.revealTitle", { name: created.name })}
          secret={created.clientSecret}
          kind="clientSecret"
          onDone={() => setCreated(null)}
        >
          <div className="flex flex-col gap-1">
            <span className="font-medium">{t("clients.clientId")}</span>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <code
                data-testid="revealed-client-id"
                className="min-w-0 flex-1 break-all rounded-md border border-emerald-200 bg-white px-3 py-2 font-mono text-xs text-slate-900"
              >
                {created.id}
              </code>
              <CopyButton value={created.id} label={t("clients.copyClientId")} />
            </div>
          </div>
          <TokenCommand
            command={tokenCurl({
              tokenUrl,
              clientId: created.id,
              clientSecret: created.clientSecret,
              scopes: created.scopes,
            })}
          />
        </SecretReveal>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0">
          {loadError ? (
            <ErrorState title={t("clients.loadFailed")}>{loadError}</ErrorState>
          ) : !clients || clients.length === 0 ? (
            <EmptyState title={t("clients.emptyTitle")}>{t("clients.emptyBody")}</EmptyState>
          ) : (
            <DataTable
              caption={t("clients.caption")}
              columns={[
                { label: t("name") },
                { label: t("clients.clientId") },
                { label: t("clients.scopes") },
                { label: t("created") },
                { label: <span className="sr-only">{t("statusAndActions")}</span> },
              ]}
            >
              <tbody className="divide-y divide-slate-100">
                {clients.map((client) => (
                  <tr
                    key={client.id}
                    data-testid="api-client-row"
                    data-revoked={client.revoked_at ? "true" : "false"}
                    className={client.revoked_at ? "bg-slate-50/60" : undefined}
                  >
                    <td className={`min-w-32 px-4 py-3 font-medium ${client.revoked_at ? "text-slate-500" : "text-slate-900"}`}>{client.name}</td>
                    <td className="px-4 py-3">
                      <code className="whitespace-nowrap font-mono text-xs text-slate-700">{client.id}</code>
                    </td>
                    <td className="px-4 py-3">
                      <ul className="flex flex-wrap gap-1" aria-label={t("clients.scopesOf", { name: client.name })}>
                        {client.scopes.map((scope) => (
                          <li
                            key={scope}
                            title={isScope(scope) ? t(`scope.${scope.replace(":", ".")}`) : undefined}
                            className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700"
                          >
                            {scope}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                      <LocalDateTime iso={client.created_at} dateOnly />
                    </td>
                    <RevokeCell name={client.name} revokedAt={client.revoked_at} pending={pending} onRevoke={() => ask(client)} />
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
        </div>
        <CreateClientForm onCreated={setCreated} />
      </div>

      <ConfirmDialog
        open={revoking !== null}
        title={t("clients.confirmTitle")}
        confirmLabel={t("clients.confirmLabel")}
        pendingLabel={t("revoking")}
        pending={pending}
        error={revokeError}
        onConfirm={() => void revoke()}
        onCancel={() => ask(null)}
      >
        <p>
          {t.rich("clients.confirmBody", {
            name: revoking?.name ?? "",
            id: revoking?.id ?? "",
            strong: (chunks) => <strong className="font-semibold text-slate-900">{chunks}</strong>,
            code: (chunks) => <code className="break-all font-mono text-xs">{chunks}</code>,
          })}
        </p>
        <p>{t("clients.confirmConsequence")}</p>
      </ConfirmDialog>
    </section>
  );
}

function TokenCommand({ command }: { command: string }) {
  const t = useTranslations("settings.credentials.clients");
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between gap-2">
        <span className="font-medium">{t("getToken")}</span>
        <CopyButton value={command} label={t("copyCommand")} />
      </div>
      <pre data-testid="token-curl" className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100">
        {command}
      </pre>
    </div>
  );
}

function CreateClientForm({ onCreated }: { onCreated: (created: CreatedClient) => void }) {
  const t = useTranslations("settings.credentials");
  const [scopes, setScopes] = useState<Scope[]>(DEFAULT_SCOPES);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  const nameId = `${id}-name`;
  const scopesErrorId = `${id}-scopes-error`;
  const nameErrors = fieldErrors["/name"];
  const scopeErrors = Object.entries(fieldErrors)
    .filter(([pointer]) => pointer.startsWith("/scopes"))
    .flatMap(([, m]) => m);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    const local: Record<string, string[]> = {};
    if (!name) local["/name"] = [t("clients.form.nameRequired")];
    if (scopes.length === 0) local["/scopes"] = [t("clients.form.scopesRequired")];
    setFieldErrors(local);
    setFormError(null);
    if (Object.keys(local).length > 0) {
      if (local["/name"]) document.getElementById(nameId)?.focus();
      return;
    }
    setPending(true);
    try {
      // In the order the form lists them.
      const result = await createApiClient({
        name,
        scopes: PARTNER_SCOPES.filter((s) => scopes.includes(s)),
      });
      if (result.ok) {
        form.current?.reset();
        setScopes(DEFAULT_SCOPES);
        onCreated(result.data);
        return;
      }
      const errors = result.fieldErrors ?? {};
      setFieldErrors(errors);
      setFormError(Object.keys(errors).some((p) => p === "/name" || p.startsWith("/scopes")) ? null : result.error);
    } catch {
      setFormError(t("unreachable"));
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      ref={form}
      aria-label={t("clients.form.label")}
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h3 className="text-base font-semibold text-slate-900">{t("clients.form.heading")}</h3>
      {formError ? <FormError>{formError}</FormError> : null}
      <Field id={nameId} label={t("clients.form.name")} hint={t("clients.form.nameHint")} errors={nameErrors}>
        <TextInput name="name" maxLength={100} autoComplete="off" required {...fieldAria(nameId, nameErrors, true)} />
      </Field>
      <fieldset className="flex flex-col gap-2" aria-describedby={scopeErrors.length ? scopesErrorId : undefined}>
        <legend className="mb-1.5 text-sm font-medium text-slate-800">{t("clients.scopes")}</legend>
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
          {PARTNER_SCOPES.map((scope) => (
            <label key={scope} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                checked={scopes.includes(scope)}
                onChange={(e) => setScopes((s) => (e.target.checked ? [...s, scope] : s.filter((x) => x !== scope)))}
                className="mt-0.5 size-4 rounded border-slate-300 accent-emerald-700 focus-visible:outline-2 focus-visible:outline-emerald-600"
              />
              <span>
                <span className="font-mono text-xs text-slate-900">{scope}</span>
                <span className="block text-xs text-slate-500">{t(`scope.${scope.replace(":", ".")}`)}</span>
              </span>
            </label>
          ))}
        </div>
        {scopeErrors.length ? (
          <ul id={scopesErrorId} role="alert" className="text-xs font-medium text-red-700">
            {[...new Set(scopeErrors)].map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending || undefined}>
          {pending ? t("clients.form.submitting") : t("clients.form.submit")}
        </Button>
      </div>
    </form>
  );
}
