// The field page is used one-handed, outdoors: every control is at least 44 × 44 CSS px (WCAG 2.5.5),
// including the quiet text-style ones ("← All tasks", "change", "Sign out"). Their look stays a
// link's; the box around them grows.

/** A text-style button: underlined words in a 44 px tall, at least 44 px wide box. */
export const TEXT_BUTTON =
  "inline-flex min-h-11 min-w-11 items-center justify-center px-2 -mx-2 text-sm underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-600";
