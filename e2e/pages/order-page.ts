import { expect, type Locator, type Page } from "@playwright/test";
import { waitForMapReady } from "../support/map-frame";

/** An order's page (/orders/{id}): status, map and locations by state, photos with their checks, timeline. */
export class OrderPage {
  readonly heading: Locator;
  readonly status: Locator;
  readonly mapFrame: Locator;
  readonly map: Locator;
  readonly locations: Locator;
  readonly photos: Locator;
  readonly timeline: Locator;
  readonly placed: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.status = page.locator("header [data-status]");
    this.mapFrame = page.locator("[data-map-state]");
    this.map = page.getByRole("region", { name: "Order map" });
    this.locations = page.getByTestId("order-location");
    this.photos = page.getByTestId("delivered-photo");
    this.timeline = page.getByTestId("order-timeline");
    this.placed = page.getByTestId("order-placed");
  }

  async goto(orderId: string) {
    await this.page.goto(`/orders/${orderId}`);
    await expect(this.heading).toBeVisible();
  }

  orderId(): string {
    return new URL(this.page.url()).pathname.split("/").pop() ?? "";
  }

  async waitForMap() {
    await waitForMapReady(this.mapFrame);
    await expect(this.map).toBeVisible();
  }

  location(name: string): Locator {
    return this.locations.filter({ hasText: name });
  }

  photo(photoId: string): Locator {
    return this.page.locator(`[data-testid="delivered-photo"][data-photo-id="${photoId}"]`);
  }

  check(photo: Locator, check: string): Locator {
    return photo.locator(`[data-check="${check}"]`);
  }
}
