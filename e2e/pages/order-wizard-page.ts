import { expect, type Locator, type Page } from "@playwright/test";
import { NEW_MISSION_VIEW } from "@/lib/map/default-view";
import { waitForMapReady } from "../support/map-frame";
import { FittedView, type Bbox, type Pixel } from "../support/map-view";

/** Where the locations map opens on an empty draft (the same view as the new-mission map). */
export const EMPTY_DRAFT_VIEW: Bbox = NEW_MISSION_VIEW;

type Step = "locations" | "what" | "when" | "delivery" | "review";

/**
 * The order wizard (/orders/new and /orders/new/{locations,what,when,delivery,review}?draft=…):
 * the stepper, Back / Next, each step's fields, and the review's quote and pay button. Locations
 * are added as a person adds them: clicks on the map at pixel offsets from its centre, or a
 * pasted CSV.
 */
export class OrderWizardPage {
  readonly start: Locator;
  readonly steps: Locator;
  readonly next: Locator;
  readonly back: Locator;
  readonly saveStatus: Locator;
  // locations
  readonly mapFrame: Locator;
  readonly map: Locator;
  readonly locationRows: Locator;
  readonly locationsCount: Locator;
  readonly pasteBox: Locator;
  readonly importPasted: Locator;
  readonly importReport: Locator;
  readonly placeSearch: Locator;
  // what
  readonly reference: Locator;
  // delivery
  readonly webhookOption: Locator;
  readonly dashboardOnly: Locator;
  readonly webhookUrl: Locator;
  readonly sendTest: Locator;
  readonly testResult: Locator;
  readonly createSecret: Locator;
  // review
  readonly quote: Locator;
  readonly quoteTotal: Locator;
  readonly placeOrder: Locator;
  readonly problems: Locator;
  readonly placeError: Locator;

  constructor(readonly page: Page) {
    this.start = page.getByRole("button", { name: "Start a new order" });
    this.steps = page.getByRole("navigation", { name: "Order steps" });
    this.next = page.getByRole("button", { name: /^Next: / });
    this.back = page.getByRole("button", { name: /Back$/ });
    this.saveStatus = page.getByTestId("draft-save-status");
    this.mapFrame = page.locator("[data-map-state]");
    this.map = page.getByRole("region", { name: "Order locations map" });
    this.locationRows = page.getByTestId("location-row");
    this.locationsCount = page.getByTestId("locations-count");
    this.pasteBox = page.getByRole("textbox", { name: "Or paste" });
    this.importPasted = page.getByRole("button", { name: "Import pasted list" });
    this.importReport = page.getByTestId("import-report");
    this.placeSearch = page.getByRole("searchbox", { name: "Place name" });
    this.reference = page.getByLabel("Your reference (optional)");
    this.webhookOption = page.getByRole("radio", { name: /Also to my webhook URL/ });
    this.dashboardOnly = page.getByRole("radio", { name: /Dashboard only/ });
    this.webhookUrl = page.getByRole("textbox", { name: "Webhook URL" });
    this.sendTest = page.getByRole("button", { name: "Send a test" });
    this.testResult = page.getByTestId("delivery-test-result");
    this.createSecret = page.getByRole("button", { name: "Create the signing secret" });
    this.quote = page.getByTestId("quote");
    this.quoteTotal = page.getByTestId("quote-total");
    this.placeOrder = page.getByTestId("place-order");
    this.problems = page.getByTestId("review-problems");
    this.placeError = page.getByTestId("place-error");
  }

  /** Opens /orders/new and starts a draft; resolves on the locations step. */
  async startNew() {
    await this.page.goto("/orders/new");
    await this.start.click();
    await this.expectStep("locations");
  }

  async expectStep(step: Step) {
    await expect(this.page).toHaveURL(new RegExp(`/orders/new/${step}\\?draft=drf_[0-9a-z]+$`));
    await expect(this.steps.locator('[aria-current="step"]')).toBeVisible();
  }

  draftId(): string {
    return new URL(this.page.url()).searchParams.get("draft") ?? "";
  }

  /** Saves and moves on with Next; resolves on the next step. */
  async goNext(to: Step) {
    await this.next.click();
    await this.expectStep(to);
  }

  async waitForSaved() {
    await expect(this.saveStatus).toHaveText("Draft saved");
  }

  async waitForMap() {
    await waitForMapReady(this.mapFrame);
    await expect(this.map).toBeVisible();
  }

  /** Clicks the map at an offset (CSS pixels) from its centre; an empty spot adds a location. */
  async clickMap(offset: Pixel) {
    const box = await this.map.boundingBox();
    if (!box) throw new Error("the map is not laid out");
    const x = box.x + box.width / 2 + offset.x;
    const y = box.y + box.height / 2 + offset.y;
    await this.page.mouse.move(x, y, { steps: 5 });
    await this.page.mouse.click(x, y);
  }

  /** Presses on the map at one offset and releases at another, moving in steps as a hand does. */
  async dragOnMap(from: Pixel, to: Pixel) {
    const box = await this.map.boundingBox();
    if (!box) throw new Error("the map is not laid out");
    const at = (p: Pixel) => ({ x: box.x + box.width / 2 + p.x, y: box.y + box.height / 2 + p.y });
    const a = at(from);
    const b = at(to);
    await this.page.mouse.move(a.x, a.y, { steps: 5 });
    await this.page.mouse.down();
    await this.page.mouse.move(b.x, b.y, { steps: 12 });
    await this.page.mouse.up();
  }

  /** How the empty-draft view is fitted into the map now (to tell where a click lands). */
  async emptyDraftView(): Promise<FittedView> {
    const box = await this.map.boundingBox();
    if (!box) throw new Error("the map is not laid out");
    return new FittedView(EMPTY_DRAFT_VIEW, box.width, box.height);
  }

  async pasteLocations(csv: string) {
    await this.pasteBox.fill(csv);
    await this.importPasted.click();
  }

  row(index: number): Locator {
    return this.locationRows.nth(index);
  }

  category(label: string): Locator {
    return this.page.getByRole("radio", { name: new RegExp(`^${label}`) });
  }

  angle(label: string): Locator {
    return this.page.getByRole("checkbox", { name: label, exact: true });
  }

  recurring(label: "Once" | "Recurring"): Locator {
    return this.page.getByRole("radio", { name: new RegExp(`^${label}`) });
  }

  stepLink(label: string): Locator {
    return this.steps.getByRole("link", { name: new RegExp(`^\\d?\\s*${label}`) });
  }
}
