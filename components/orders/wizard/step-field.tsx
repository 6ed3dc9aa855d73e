import type { ReactNode } from "react";

/**
 * The errors that concern a field or a group, announced as they appear. A list inside an alert
 * region (an `<ul role="alert">` would lose its list semantics, and axe rightly flags its items).
 */
export function ErrorList({
  id,
  messages,
  className = "text-xs font-medium text-red-700",
}: {
  id?: string;
  messages: string[] | undefined;
  className?: string;
}) {
  if (!messages?.length) return null;
  return (
    <div id={id} role="alert" className={className}>
      <ul>
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}

/** components/ui/field's Field, with its errors in an ErrorList (ids as fieldAria expects). */
export function StepField({ id, label, hint, errors, children }: { id: string; label: string; hint?: ReactNode; errors?: string[]; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={`${id}-error`} messages={errors} />
    </div>
  );
}
