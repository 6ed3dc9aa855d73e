import { parseProse, type Inline } from "./parse-prose";

function Inlines({ parts }: { parts: Inline[] }) {
  return parts.map((part, i) =>
    part.code ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] break-all text-slate-900">
        {part.text}
      </code>
    ) : (
      <span key={i}>{part.text}</span>
    ),
  );
}

/** An OpenAPI description (paragraphs, `code`, pipe tables) as HTML. */
export function Prose({ text, className = "" }: { text: string; className?: string }) {
  return (
    <div className={`flex flex-col gap-2 ${className}`}>
      {parseProse(text).map((block, i) =>
        block.kind === "paragraph" ? (
          <p key={i}>
            <Inlines parts={block.inlines} />
          </p>
        ) : (
          <div key={i} className="relative overflow-x-auto rounded-md border border-slate-200">
            <table className="min-w-full divide-y divide-slate-200 text-xs">
              <thead className="bg-slate-50 text-start font-semibold text-slate-700">
                <tr>
                  {block.head.map((cell, j) => (
                    <th key={j} scope="col" className="px-2 py-1.5">
                      <Inlines parts={cell} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {block.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, j) => (
                      <td key={j} className="px-2 py-1.5 align-top">
                        <Inlines parts={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ),
      )}
    </div>
  );
}
