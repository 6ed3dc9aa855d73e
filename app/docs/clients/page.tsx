// The client libraries (clients/typescript, clients/python): what they do and their quick starts,
// shown from the READMEs' own quick-start blocks — the code the test suite runs — so this page
// shows exactly what is tested.
import { join } from "node:path";
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { quickStartCode } from "@/clients/readme-code";
import { env } from "@/lib/env";

export const metadata: Metadata = { title: "Client libraries" };

const CLIENTS = [
  {
    id: "typescript",
    name: "TypeScript / JavaScript — @photo-missions/sdk 1.0.0",
    readme: "clients/typescript/README.md",
    language: "js" as const,
    install: "cd clients/typescript && npm pack   # then: npm install ./photo-missions-sdk-1.0.0.tgz",
    run: (origin: string) => `PHOTO_MISSIONS_URL=${origin} node quick-start.mjs`,
  },
  {
    id: "python",
    name: "Python — photo-missions 1.0.0 (standard library only)",
    readme: "clients/python/README.md",
    language: "python" as const,
    install: "pip install ./clients/python   # or PYTHONPATH=clients/python/src",
    run: (origin: string) => `PHOTO_MISSIONS_URL=${origin} python3 quick_start.py`,
  },
];

const COMMAND = "overflow-x-auto rounded-md bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900";

export default async function ClientsPage() {
  // Rendered per request: the commands name this deployment's origin (PUBLIC_ORIGIN), which the
  // build does not know.
  await connection();
  const origin = env.PUBLIC_ORIGIN;
  return (
    <main className="mx-auto flex min-h-screen max-w-4xl flex-col gap-8 bg-white px-4 py-8 break-words sm:px-6">
      <header className="flex flex-col gap-2">
        <p className="text-sm">
          <Link className="text-emerald-700 underline" href="/docs">
            API reference
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Client libraries</h1>
        <p className="text-slate-700">
          Both clients follow the API&apos;s version (1.x for <code>/api/v1</code> and <code>/api/orders/v1</code>) and do the same work for you: OAuth client
          credentials discovered from <code>/.well-known/oauth-authorization-server</code>, cached and refreshed before they expire (or an API key for orders);
          the SDK preview&apos;s field names (<code>requiredImages</code>); paging as iterators; retries that honour <code>Retry-After</code> on 429 and back
          off on 5xx only where repeating is safe (every POST carries an Idempotency-Key); typed problem errors; streamed downloads of images and exports; and
          webhook verification (constant time, timestamp tolerance, rotated secrets). Each README in the repository has the full reference.
        </p>
        <p className="text-slate-700">
          The quick starts play a partner, a zoomer and a webhook receiver against a running app. Prepare: start the app with{" "}
          <code>WEBHOOK_ALLOW_PRIVATE_TARGETS=true npm run dev</code>; create credentials with <code>npm run admin</code> (an organisation, a partner client
          with missions:read, missions:write, submissions:read and webhooks:manage, a zoomer, an API key) and set <code>PARTNER_CLIENT_ID</code>,{" "}
          <code>PARTNER_CLIENT_SECRET</code>, <code>ZOOMER_CLIENT_ID</code>, <code>ZOOMER_CLIENT_SECRET</code>, <code>ORDERS_API_KEY</code>; make two sample
          photos with <code>npx tsx scripts/make-sample-photos.ts</code>, which prints <code>PLACE_LAT</code>, <code>PLACE_LNG</code>, <code>PHOTO_FILE</code>{" "}
          and <code>TASK_PHOTO_FILE</code>.
        </p>
        <nav aria-label="Clients" className="flex gap-4 text-sm">
          {CLIENTS.map((client) => (
            <a key={client.id} className="text-emerald-700 underline" href={`#${client.id}`}>
              {client.name.split(" — ")[0]}
            </a>
          ))}
        </nav>
      </header>
      {CLIENTS.map((client) => (
        <section key={client.id} aria-labelledby={client.id} className="flex flex-col gap-3">
          <h2 id={client.id} className="text-xl font-semibold">
            {client.name}
          </h2>
          <p className="text-slate-700">
            README: <code>{client.readme}</code>.
          </p>
          <dl className="flex flex-col gap-2 text-slate-700">
            <dt>Install</dt>
            <dd className="min-w-0">
              <pre className={COMMAND} data-testid={`${client.id}-install`}>
                <code>{client.install}</code>
              </pre>
            </dd>
            <dt>Run (against this deployment)</dt>
            <dd className="min-w-0">
              <pre className={COMMAND} data-testid={`${client.id}-run`}>
                <code>{client.run(origin)}</code>
              </pre>
            </dd>
          </dl>
          <pre className="overflow-x-auto rounded-md bg-slate-900 p-4 text-sm leading-relaxed text-slate-100">
            <code>{quickStartCode(join(process.cwd(), client.readme), client.language)}</code>
          </pre>
        </section>
      ))}
    </main>
  );
}
