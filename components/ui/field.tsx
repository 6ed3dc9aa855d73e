import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

export const inputClasses =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus-visible:border-emerald-600 focus-visible:outline-2 focus-visible:outline-emerald-600 aria-[invalid=true]:border-red-500";

/** A labelled form field with an optional hint and the errors that concern it. */
export function Field({ id, label, hint, errors, children }: { id: string; label: string; hint?: ReactNode; errors?: string[]; children: ReactNode }) {
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
      {errors?.length ? (
        // The alert wraps the list: role="alert" on the <ul> itself would strip its list semantics.
        <div id={`${id}-error`} role="alert" className="text-xs font-medium text-red-700">
          <ul>
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

export function fieldAria(id: string, errors: string[] | undefined, hint: boolean) {
  const describedBy = [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(" ");
  return { id, "aria-invalid": errors?.length ? true : undefined, "aria-describedby": describedBy || undefined };
}

export function TextInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`${inputClasses} ${props.className ?? ""}`} />;
}

export function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`${inputClasses} ${props.className ?? ""}`} />;
}
