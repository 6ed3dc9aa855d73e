// The API reference as HTML rendered on the server from the public OpenAPI document: readable at
// once, on any screen, without the seconds Swagger UI spends processing the whole document in the
// browser (the interactive console, api-console.tsx, loads it on demand).
import Link from "next/link";
import type { ApiOutline, OutlineField, OutlineOperation } from "./openapi-outline";
import { Prose } from "./prose";

const METHOD_COLOURS: Record<string, string> = {
  GET: "bg-blue-700",
  POST: "bg-emerald-700",
  PUT: "bg-amber-700",
  PATCH: "bg-teal-700",
  DELETE: "bg-red-700",
};

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function FieldTable({ caption, fields }: { caption: string; fields: OutlineField[] }) {
  const withIn = fields.some((f) => f.in !== null);
  return (
    <div className="relative overflow-x-auto rounded-md border border-slate-200">
      {/* Cell styles set once on the table: the page holds about a hundred operations. */}
      <table className="min-w-full divide-y divide-slate-200 text-xs text-slate-700 [&_td]:px-2 [&_td]:py-1.5 [&_td]:align-top [&_th]:px-2 [&_th]:py-1.5">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-start font-semibold">
          <tr>
            <th scope="col">Name</th>
            {withIn ? <th scope="col">In</th> : null}
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 [&_td:first-child]:font-mono [&_td:first-child]:whitespace-nowrap [&_td:first-child]:text-slate-900">
          {fields.map((f) => (
            <tr key={`${f.in ?? "body"}-${f.name}`}>
              <td>
                {f.name}
                {f.required ? <b className="ms-1 font-sans text-[0.7rem] text-red-800">required</b> : null}
              </td>
              {withIn ? <td>{f.in}</td> : null}
              <td className="font-mono break-words">{f.type}</td>
              <td className="min-w-48">{f.description ? <Prose text={f.description} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Operation({ op, headersShown = true }: { op: OutlineOperation; headersShown?: boolean }) {
  const name = `${op.method} ${op.path}`;
  return (
    <li>
      <details id={op.id} className="group rounded-md border border-slate-200 bg-white open:shadow-sm" data-testid="api-operation" data-operation={name}>
        <summary className="flex min-h-11 cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 focus-visible:outline-2 focus-visible:outline-emerald-600">
          <span
            className={`w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-bold text-white ${METHOD_COLOURS[op.method] ?? "bg-slate-700"}`}
          >
            {op.method}
          </span>
          <code className="font-mono text-sm break-all text-slate-900">{op.path}</code>
          <span className="text-sm text-slate-600">{op.summary}</span>
        </summary>
        <div className="flex flex-col gap-3 border-t border-slate-200 px-3 py-3 text-sm text-slate-800">
          {op.description ? <Prose text={op.description} /> : null}
          {op.auth.length > 0 ? (
            <p>
              <span className="font-semibold">Authentication:</span> {op.auth.join("; or ")}
            </p>
          ) : null}
          {headersShown && op.parameters.length > 0 ? (
            <div className="flex flex-col gap-1">
              <h4 className="font-semibold">Parameters</h4>
              <FieldTable caption={`Parameters of ${name}`} fields={op.parameters} />
            </div>
          ) : null}
          {op.body ? (
            <div className="flex flex-col gap-1">
              <h4 className="font-semibold">
                Request body
                {op.body.schema ? (
                  <>
                    : <code className="font-mono text-xs">{op.body.schema}</code>
                  </>
                ) : null}{" "}
                <span className="font-normal text-slate-600">({op.body.contentTypes.join(", ")})</span>
              </h4>
              {op.body.fields.length > 0 ? <FieldTable caption={`Request body of ${name}`} fields={op.body.fields} /> : null}
            </div>
          ) : null}
          <div className="flex flex-col gap-1">
            <h4 className="font-semibold">Responses</h4>
            <ul className="flex flex-col gap-1">
              {op.responses.map((r) => (
                <li key={r.status} className="flex gap-2">
                  <span className="w-10 shrink-0 font-mono font-semibold text-slate-900">{r.status}</span>
                  <span className="min-w-0">
                    {r.description}
                    {r.schema ? (
                      <>
                        {" "}
                        <code className="font-mono text-xs break-all text-slate-600">{r.schema}</code>
                      </>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </details>
    </li>
  );
}

export function ApiOutlineView({ outline }: { outline: ApiOutline }) {
  return (
    <div className="flex flex-col gap-8" data-testid="api-outline">
      <div className="flex flex-col gap-2 text-sm text-slate-700">
        <p className="font-medium text-slate-900">
          {outline.title} <span className="rounded bg-slate-600 px-1.5 py-0.5 font-mono text-xs text-white">{outline.version}</span>
        </p>
        {outline.description ? <Prose text={outline.description} /> : null}
        <nav aria-label="Sections of the reference">
          <ul className="flex flex-wrap gap-x-1 gap-y-1">
            {[...outline.tags.map((t) => t.name), ...(outline.webhooks.length > 0 ? ["Webhook events"] : [])].map((name) => (
              <li key={name}>
                <a href={`#tag-${slug(name)}`} className="inline-flex min-h-8 items-center rounded px-2 text-emerald-800 underline hover:bg-emerald-50">
                  {name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {outline.tags.map((tag) => (
        <section key={tag.name} id={`tag-${slug(tag.name)}`} aria-labelledby={`tag-${slug(tag.name)}-h`} className="flex scroll-mt-4 flex-col gap-2">
          <h2 id={`tag-${slug(tag.name)}-h`} className="text-lg font-semibold text-slate-900">
            {tag.name}
          </h2>
          {tag.description ? <Prose text={tag.description} className="text-sm text-slate-700" /> : null}
          <ul className="flex flex-col gap-1.5">
            {tag.operations.map((op) => (
              <Operation key={op.id} op={op} />
            ))}
          </ul>
        </section>
      ))}
      {outline.webhooks.length > 0 ? (
        <section id="tag-webhook-events" aria-labelledby="tag-webhook-events-h" className="flex scroll-mt-4 flex-col gap-2">
          <h2 id="tag-webhook-events-h" className="text-lg font-semibold text-slate-900">
            Webhook events
          </h2>
          <p className="text-sm text-slate-700">
            What the service POSTs to your endpoints, one request per event; see the{" "}
            <Link className="text-emerald-800 underline" href="/docs/webhooks">
              webhooks guide
            </Link>{" "}
            for verifying signatures. Every event request carries these headers:
          </p>
          {outline.webhooks[0] && outline.webhooks[0].parameters.length > 0 ? (
            <FieldTable caption="Headers of every webhook request" fields={outline.webhooks[0].parameters} />
          ) : null}
          <ul className="flex flex-col gap-1.5">
            {outline.webhooks.map((op) => (
              <Operation key={op.id} op={op} headersShown={false} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
