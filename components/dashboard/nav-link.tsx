"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";

/**
 * A link of the dashboard's navigation. It prefetches on intent (pointer over it, or focus), not
 * as soon as it is in view: every dashboard page is rendered per request behind the session, so
 * each viewport prefetch is a server render of its own, and the five in the header ran while the
 * mission page was streaming its points and starting its map (map-points benchmark trace: 10
 * prefetch requests between 0.8 and 2 s of a 5.7 s load). The pattern is Next's own
 * (`prefetch={false}` until the pointer arrives).
 */
export function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const pathname = usePathname();
  const [intent, setIntent] = useState(false);
  const active = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      prefetch={intent ? null : false}
      onMouseEnter={() => setIntent(true)}
      onFocus={() => setIntent(true)}
      aria-current={active ? "page" : undefined}
      className={`whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 ${
        active ? "bg-emerald-50 text-emerald-900" : "text-slate-700 hover:bg-slate-100"
      }`}
    >
      {children}
    </Link>
  );
}
