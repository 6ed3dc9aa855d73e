// BaseMap's frame says whether MapLibre is loading, ready or failed (data-map-state). Waiting for
// "ready" fails at once, with the map's own message, when it failed: no 30-second timeout for a
// missing worker or style.
import { expect, type Locator } from "@playwright/test";

export async function waitForMapReady(frame: Locator, timeout = 30_000): Promise<void> {
  await expect(frame).not.toHaveAttribute("data-map-state", "loading", { timeout });
  if ((await frame.getAttribute("data-map-state")) === "failed") {
    const message =
      (await frame
        .getByRole("alert")
        .textContent()
        .catch(() => null)) ?? "no message";
    throw new Error(`the map failed to load: ${message.trim()}`);
  }
  await expect(frame).toHaveAttribute("data-map-state", "ready");
}
