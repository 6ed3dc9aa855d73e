"use client";
import Link from "next/link";
import { useState, type ComponentProps } from "react";

/**
 * A Next link that prefetches on intent (the pointer over it, or focus), not as soon as it is in
 * view. Every dashboard page is rendered per request behind the session, so each viewport
 * prefetch is a server render of its own in the web process, run while the page that is opening
 * still needs that process: on the mission page the "← Missions" and "Edit" links cost four
 * renders during the first second, beside the points and MapLibre's chunk (map-points trace).
 * The pattern is Next's own: `prefetch={false}` until the pointer arrives.
 */
export function IntentLink({ onMouseEnter, onFocus, ...props }: Omit<ComponentProps<typeof Link>, "prefetch">) {
  const [intent, setIntent] = useState(false);
  return (
    <Link
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={(event) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
    />
  );
}
