// What sticks out of the page sideways: the language specs' check that a translated page (longer
// words, right to left) still fits its screen.
import type { Page } from "@playwright/test";

/** How far the page scrolls sideways, and what sticks out past the right or left edge (the first five, for the message). */
export async function overflow(page: Page): Promise<{ scrollWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = root.clientWidth;
    const culprits: string[] = [];
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      const box = el.getBoundingClientRect();
      // Screen-reader-only text is a 1 px box on purpose.
      if (box.width > 1 && (box.right > width + 1 || box.left < -1))
        culprits.push(`<${el.tagName.toLowerCase()}> "${(el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
    return { scrollWidth: root.scrollWidth, culprits: culprits.slice(0, 5) };
  });
}
