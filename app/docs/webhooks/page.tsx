import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { RETRY_DELAYS_SECONDS } from "@/lib/service/webhooks/retry-schedule";
import { WEBHOOK_EVENTS } from "@/lib/schemas/webhook";

export const metadata: Metadata = { title: "Webhooks guide" };

function Code({ children, label }: { children: string; label: string }) {
  return (
    <figure className="my-3">
      <figcaption className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</figcaption>
      <pre className="mt-1 overflow-x-auto rounded-md bg-slate-900 p-4 text-sm leading-relaxed text-slate-100">
        <code>{children}</code>
      </pre>
    </figure>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const human = (s: number) => (s < 3600 ? `${s / 60} min` : `${s / 3600} h`);

const STANDARD_JS = `// npm install standardwebhooks
import { Webhook } from "standardwebhooks";

// The secret exactly as the API showed it ("whsec_…"); the raw body, before any JSON parsing.
export function verify(rawBody: string, headers: Record<string, string>, secret: string) {
  // Throws unless webhook-signature matches and webhook-timestamp is within 5 minutes.
  return new Webhook(secret).verify(rawBody, headers);
}`;

const STANDARD_PY = `# pip install standardwebhooks
from standardwebhooks.webhooks import Webhook

def verify(raw_body: bytes, headers: dict, secret: str) -> dict:
    # Raises unless webhook-signature matches and webhook-timestamp is within 5 minutes.
    return Webhook(secret).verify(raw_body, headers)`;

const JS = `import { createHmac, timingSafeEqual } from "node:crypto";

// Use the raw bytes of the body, before any JSON parsing.
export function verify(rawBody: Buffer, headers: Record<string, string | undefined>, secret: string): boolean {
  const expected = Buffer.from(createHmac("sha256", secret).update(rawBody).digest("hex"));
  return ["x-svc-signature", "x-svc-signature-previous"].some((name) => {
    const given = Buffer.from(headers[name] ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;

const PY = `import hashlib, hmac

def verify(raw_body: bytes, headers: dict, secret: str) -> bool:
    expected = hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return any(
        hmac.compare_digest(expected, headers.get(name, ""))
        for name in ("X-SVC-Signature", "X-SVC-Signature-Previous")
    )`;

const SHELL = `# body.json holds the raw request body exactly as received
openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" -hex < body.json | sed 's/^.*= //'
# compare the output with the X-SVC-Signature header`;

const ENVELOPE = `POST /your/endpoint HTTP/1.1
Content-Type: application/json
User-Agent: PhotoMissions-Webhooks/1.0
X-SVC-Signature: 5d2c…            (hex HMAC-SHA256 of the raw body, current secret)
X-SVC-Signature-Previous: 91ab…   (only during a rotation's grace period)
X-SVC-Event-Id: evt_06h0…         (the same on every attempt)
X-SVC-Event: submission.approved
X-SVC-Timestamp: 1795000000       (this attempt, Unix seconds)
X-SVC-Delivery-Id: dlv_06h0…
X-SVC-Attempt: 1
webhook-id: evt_06h0…             (Standard Webhooks: the event id)
webhook-timestamp: 1795000000     (Standard Webhooks: this attempt, Unix seconds)
webhook-signature: v1,K5oZ…= v1,…  (Standard Webhooks; a second entry during a rotation)

{"id":"evt_06h0…","event":"submission.approved","timestamp":"2026-11-21T10:12:03.114Z","data":{…}}`;

export default function WebhooksGuidePage() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-6 py-10">
      <header className="flex flex-col gap-2">
        <p className="text-sm">
          <Link href="/docs" className="text-emerald-700 underline">
            API reference
          </Link>{" "}
          / Webhooks guide
        </p>
        <h1 className="text-3xl font-bold tracking-tight">Webhooks</h1>
        <p className="text-slate-700">
          Register an endpoint with <code>POST /api/v1/webhooks</code> (scope <code>webhooks:manage</code>) and receive every event of your organisation as a
          signed POST: exactly once in the normal case, at least once in every case.
        </p>
      </header>

      <Section id="events" title="Events">
        <ul className="list-disc ps-6 text-slate-700">
          {WEBHOOK_EVENTS.map((e) => (
            <li key={e}>
              <code>{e}</code>
            </li>
          ))}
          <li>
            <code>webhook.test</code> — sent by “send a test event”, whatever the endpoint subscribes to.
          </li>
        </ul>
        <p className="text-slate-700">
          Subscribe with <code>events</code> (default <code>[&quot;*&quot;]</code>: all, including events added later). Each event&apos;s <code>data</code> is
          documented in the OpenAPI document&apos;s <code>webhooks</code> section; <code>submission.received</code> carries exactly the fields of the spec.
        </p>
        <Code label="A delivery">{ENVELOPE}</Code>
      </Section>

      <Section id="verify" title="Verifying the signature">
        <p className="text-slate-700">
          Every request is signed twice, with the same secret; check either (or both) before trusting anything in it, on the <strong>raw body bytes</strong> as
          received.
        </p>
        <ul className="list-disc ps-6 text-slate-700">
          <li>
            <code>webhook-signature</code> —{" "}
            <a className="text-emerald-700 underline" href="https://www.standardwebhooks.com">
              Standard Webhooks
            </a>
            : <code>v1,</code> + the base64 HMAC-SHA256 of <code className="break-all">{"{webhook-id}.{webhook-timestamp}.{body}"}</code>, keyed with the bytes
            your secret decodes to (the base64 after <code>whsec_</code>). It binds the timestamp, so a captured request cannot be replayed later: prefer it.
            The official <code>standardwebhooks</code> libraries (JavaScript, Python, Go, Java, Ruby, PHP, Rust, C#…) verify it with the secret exactly as the
            API showed it, in their default mode.
          </li>
          <li>
            <code>X-SVC-Signature</code> — the hex HMAC-SHA256 of the body, keyed with the secret&apos;s characters as shown. Easy to check by hand; it does not
            cover the timestamp (compare <code>X-SVC-Timestamp</code> with your clock yourself).
          </li>
        </ul>
        <p className="text-slate-700">
          After a rotation, the old secret keeps signing for a grace period (24 h by default): a second entry in <code>webhook-signature</code> and{" "}
          <code>X-SVC-Signature-Previous</code>, so accept either secret while you deploy the new one. Secrets are <code>whsec_</code> + standard base64 (so{" "}
          <code>+</code>, <code>/</code> and <code>=</code> are part of them).
        </p>
        <p className="text-slate-700">
          Secrets issued before the service followed Standard Webhooks exactly (base64url, <code>odsec_…</code> for order deliveries) keep signing as they did
          until you rotate them: <code>webhook-signature</code> keyed with the secret&apos;s characters, which the official libraries verify only in their
          &quot;raw&quot; secret format (<code>new Webhook(secret, {'{ format: "raw" }'})</code>). Rotate such a secret to get one that works in the default
          mode. Our SDKs (<code>verifyWebhook</code>, <code>verify_webhook</code>) accept both kinds and check both headers.
        </p>
        <Code label="JavaScript — official standardwebhooks library">{STANDARD_JS}</Code>
        <Code label="Python — official standardwebhooks library">{STANDARD_PY}</Code>
        <Code label="X-SVC-Signature by hand — JavaScript (Node)">{JS}</Code>
        <Code label="X-SVC-Signature by hand — Python">{PY}</Code>
        <Code label="X-SVC-Signature by hand — openssl">{SHELL}</Code>
      </Section>

      <Section id="retries" title="Retries, ordering and duplicates">
        <ul className="list-disc ps-6 text-slate-700">
          <li>Any 2xx within 10 seconds is success. Answer first, process afterwards.</li>
          <li>Redirects are not followed: a 3xx counts as a failure. Register the final URL.</li>
          <li>
            Failures are retried with exponential backoff and ±10 % jitter, {RETRY_DELAYS_SECONDS.length + 1} attempts over about three days: after{" "}
            {RETRY_DELAYS_SECONDS.map(human).join(", ")}.
          </li>
          <li>
            The body and <code>X-SVC-Event-Id</code> never change between attempts: deduplicate on the event id.
          </li>
          <li>
            Events are delivered at least once and <strong>not necessarily in order</strong> (a retry can arrive after a later event). Use the envelope&apos;s{" "}
            <code>timestamp</code>, or read the current state from the API, when order matters.
          </li>
          <li>
            <code>410 Gone</code> disables the endpoint at once. An endpoint whose deliveries keep failing for days is disabled too; its{" "}
            <code>disabled_reason</code> says why. Enable it again with <code>PATCH</code> once it is fixed.
          </li>
          <li>
            Nothing is lost while your receiver or our service is down: events are stored with the change that caused them, and a delivery interrupted by a
            restart is retried.
          </li>
          <li>
            Every attempt is in the delivery log (status, latency, the first 512 characters of your response, or the error), and any settled delivery can be
            redelivered.
          </li>
        </ul>
      </Section>

      <Section id="targets" title="Allowed targets">
        <p className="text-slate-700">
          Endpoints must be public http(s) URLs. Loopback, private, link-local and metadata addresses are refused at registration and again when connecting, so
          a name that later resolves to a private address is not called. For local development, run the service with{" "}
          <code>WEBHOOK_ALLOW_PRIVATE_TARGETS=true</code>.
        </p>
      </Section>
    </main>
  );
}
