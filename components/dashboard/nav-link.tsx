"use client";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { IntentLink } from "@/components/ui/intent-link";

/**
 * A link of the dashboard's navigation, prefetching on intent (IntentLink): the five in the header
 * prefetched as soon as they were in view, while the mission page was streaming its points and
 * starting its map (map-points benchmark trace: 10 prefetch requests between 0.8 and 2 s of a
 * 5.7 s load).
 */
/** `exact`: only the page itself is this link's (Settings, whose sub-page API credentials has a link of its own). */
export function NavLink({ href, exact = false, children }: { href: string; exact?: boolean; children: ReactNode }) {
  const pathname = usePathname();
  const active = pathname === href || (!exact && pathname.startsWith(`${href}/`));
  return (
    <IntentLink
      href={href}
      aria-current={active ? "page" : undefined}
      className={`whitespace-nowrap rounded-md px-3 py-2.5 text-sm md:py-1.5 font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 ${
        active ? "bg-emerald-50 text-emerald-900" : "text-slate-700 hover:bg-slate-100"
      }`}
    >
      {children}
    </IntentLink>
  );
}
