"use client";
import { useId, useRef, useState, type FormEvent } from "react";
import { createApiKey, revokeApiKey } from "@/app/(dashboard)/settings/credentials/actions";
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

  return (
    <section aria-labelledby="api-keys-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="api-keys-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          API keys
        </h2>
        <p className="max-w-3xl text-sm text-slate-600">
          Keys for the order interface (<code className="break-all font-mono text-xs">{orderApiUrl}</code>), sent as{" "}
          <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>. We store only a digest, so a key is shown once, when it is created.
        </p>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>

      {created ? (
        <SecretReveal label="New API key" title={`Key “${created.name}” created`} secret={created.key} secretName="API key" onDone={() => setCreated(null)}>
          <p>
            Send it as <code className="font-mono">Authorization: Bearer</code> followed by the key with every request to the order interface.
          </p>
        </SecretReveal>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0">
          {loadError ? (
            <ErrorState title="The API keys could not be loaded">{loadError}</ErrorState>
          ) : !apiKeys || apiKeys.length === 0 ? (
            <EmptyState title="No API keys yet">Create a key for each system that places orders, so you can revoke one without disturbing the others.</EmptyState>
          ) : (
            <DataTable
              caption="API keys"
              columns={[
                { label: "Name" },
                { label: "Key" },
                { label: "Created" },
                { label: "Last used" },
                { label: <span className="sr-only">Status and actions</span> },
              ]}
            >
              <tbody className="divide-y divide-slate-100">
                {apiKeys.map((key) => (
                  <tr key={key.id} data-testid="api-key-row" data-revoked={key.revoked_at ? "true" : "false"} className={key.revoked_at ? "bg-slate-50/60" : undefined}>
                    <td className={`min-w-32 px-4 py-3 font-medium ${key.revoked_at ? "text-slate-500" : "text-slate-900"}`}>{key.name}</td>
                    <td className="whitespace-nowrap px-4 py-3">
                      <code className="font-mono text-xs text-slate-700" title="Only the first characters are kept for display">
                        {key.key_prefix}…
                      </code>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                      <LocalDateTime iso={key.created_at} dateOnly />
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                      {key.last_used_at ? <RelativeTime iso={key.last_used_at} /> : <span className="text-slate-500">Never</span>}
                    </td>
                    <RevokeCell
                      name={key.name}
                      revokedAt={key.revoked_at}
                      pending={pending}
                      onRevoke={() => ask(key)}
                    />
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
        title="Revoke this API key?"
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        pending={pending}
        error={revokeError}
        onConfirm={() => void revoke()}
        onCancel={() => ask(null)}
      >
        <p>
          Requests with <strong className="font-semibold text-slate-900">{revoking?.name}</strong> (<code className="font-mono text-xs">{revoking?.key_prefix}…</code>) are refused
          from now on. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedKey) => void }) {
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
      setNameErrors(["Give the key a name, such as the system that uses it."]);
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
      setFormError("The service could not be reached. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      ref={form}
      aria-label="Create API key"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h3 className="text-base font-semibold text-slate-900">New API key</h3>
      {formError ? (
        <FormError>{formError}</FormError>
      ) : null}
      <Field id={nameId} label="Key name" hint="Which system uses it, e.g. “ERP orders”." errors={nameErrors}>
        <TextInput name="name" maxLength={100} autoComplete="off" required {...fieldAria(nameId, nameErrors, true)} />
      </Field>
      <div>
        <Button type="submit" disabled={pending} aria-busy={pending || undefined}>
          {pending ? "Creating key…" : "Create key"}
        </Button>
      </div>
    </form>
  );
}
