"use client";
// The dashboard header's menu on a phone: below 768 px the navigation, the organisation, the
// language and the signed-in user fold behind one button (they took about 450 of 844 px at 390 px
// on every page); from 768 px up the panel is laid out inline, as the header always was
// (`md:contents`), and the button is hidden. A disclosure, not an ARIA menu: a real
// <button aria-expanded aria-controls>, Escape closes and gives focus back to the button, and a
// navigation (the path changing) closes it.
import { useTranslations } from "next-intl";
import { usePathname } from "next/navigation";
import { useId, useRef, useState, type ReactNode } from "react";

export function HeaderMenu({ children }: { children: ReactNode }) {
  const t = useTranslations("dashboard.shell");
  const pathname = usePathname();
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  // Open on the page it was opened on: moving to another page closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;

  return (
    <div
      className="contents"
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !open) return;
        event.stopPropagation();
        setOpenOn(null);
        button.current?.focus();
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpenOn(open ? null : pathname)}
        className="ms-auto inline-flex h-11 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 md:hidden"
      >
        <svg aria-hidden viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round">
          {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 6h14M3 10h14M3 14h14" />}
        </svg>
        {t("menu")}
      </button>
      <div
        id={panelId}
        data-open={open || undefined}
        className={`${open ? "flex" : "hidden"} w-full flex-col gap-3 border-t border-slate-200 pt-3 md:contents`}
      >
        {children}
      </div>
    </div>
  );
}
