// Browser side: asks next-auth to re-issue the session cookie after the user changed a setting it
// carries (their language). The jwt callback (next-auth-options.ts) re-reads the value from the
// service on this "update", so nothing the browser sends here is trusted.
import { getCsrfToken } from "next-auth/react";

export async function refreshSession(): Promise<void> {
  const csrfToken = await getCsrfToken();
  const response = await fetch("/api/auth/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken, data: {} }),
  });
  if (!response.ok) throw new Error(`The session could not be refreshed (${response.status}).`);
}
