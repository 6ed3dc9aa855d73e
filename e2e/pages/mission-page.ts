import { expect, type Locator, type Page } from "@playwright/test";
import { waitForMapReady } from "../support/map-frame";

/**
 * A mission's page (/missions/[id]): header with progress, Edit and Export ZIP; the submission
 * list with its filters; the live map; the selected submission's panel and its full-size viewer.
 */
export class MissionPage {
  readonly heading: Locator;
  readonly edit: Locator;
  readonly exportZip: Locator;
  readonly exportProgress: Locator;
  readonly listPane: Locator;
  readonly listCount: Locator;
  /** The header's counts: approved images toward the target, and submissions. */
  readonly headerApproved: Locator;
  readonly headerSubmissions: Locator;
  readonly submissions: Locator;
  readonly emptyList: Locator;
  readonly mapFrame: Locator;
  readonly map: Locator;
  readonly mapPoints: Locator;
  readonly panel: Locator;
  readonly closePanel: Locator;
  /** The selected submission's id in the panel (selectable, with a Copy id button). */
  readonly panelId: Locator;
  readonly metadata: Locator;
  readonly qaChecks: Locator;
  readonly viewFullSize: Locator;
  readonly viewer: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.edit = page.getByRole("link", { name: "Edit", exact: true });
    this.exportZip = page.getByRole("button", { name: "Export ZIP" });
    this.exportProgress = page.getByRole("progressbar", { name: "Export download" });
    this.listPane = page.getByRole("complementary", { name: "Submission list" });
    this.listCount = this.listPane.locator("[aria-live=polite]").first();
    this.headerApproved = page.getByTestId("mission-approved");
    this.headerSubmissions = page.getByTestId("mission-submissions");
    this.submissions = this.listPane.getByRole("list", { name: "Submissions" }).getByRole("listitem");
    this.emptyList = this.listPane.getByText("No submissions yet");
    // BaseMap's frame says whether the map is loading, ready or failed; MapLibre names its canvas.
    this.mapFrame = page.locator("[data-map-state]");
    this.map = page.getByRole("region", { name: "Mission map" });
    // The map's live region: "N submissions on the map" once MapLibre has drawn them (data-count).
    this.mapPoints = page.getByTestId("map-points");
    this.panel = page.getByRole("region", { name: "Submission details" });
    this.closePanel = this.panel.getByRole("button", { name: "Close submission details" });
    this.panelId = this.panel.getByTestId("submission-id");
    this.metadata = this.panel.getByLabel("Photo metadata");
    this.qaChecks = this.panel.getByRole("list", { name: "QA checks" });
    this.viewFullSize = this.panel.getByRole("button", { name: "View full size" });
    this.viewer = page.getByRole("dialog", { name: "Photo viewer" });
  }

  async goto(missionId: string) {
    await this.page.goto(`/missions/${missionId}`);
    await expect(this.heading).toBeVisible();
  }

  async waitForMap() {
    await waitForMapReady(this.mapFrame);
    await expect(this.map).toBeVisible();
  }

  /** Waits until the map says it has drawn this many submissions. */
  async expectPointsOnMap(count: number, timeout = 20_000) {
    await expect(this.mapPoints).toHaveAttribute("data-count", String(count), { timeout });
    await expect(this.mapPoints).toHaveText(`${count} submission${count === 1 ? "" : "s"} on the map`);
  }

  /** The row of a submission in the list, by its id (rows show no id; they carry it as data-submission-id). */
  submission(id: string): Locator {
    return this.submissions.and(this.page.locator(`[data-submission-id="${id}"]`));
  }

  /** The panel's thumbnail of photo n (1-based): a decorative image inside the photo's button. */
  thumbnail(n: number): Locator {
    return this.panel
      .getByRole("group", { name: "Photos" })
      .getByRole("button", { name: new RegExp(`^Photo ${n}\\b`) })
      .locator("img");
  }

  /** A row of the panel's metadata table ("Device", "GPS", …): its value. */
  metadataValue(label: string): Locator {
    return this.panel
      .getByRole("term")
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator("xpath=following-sibling::dd[1]");
  }

  async mapBox() {
    const box = await this.map.boundingBox();
    if (!box) throw new Error("the map canvas is not laid out");
    return box;
  }

  /** Clicks the map at an offset (CSS pixels) from its centre, moving the mouse there first. */
  async clickMap(offset: { x: number; y: number } = { x: 0, y: 0 }) {
    const box = await this.mapBox();
    const x = box.x + box.width / 2 + offset.x;
    const y = box.y + box.height / 2 + offset.y;
    await this.page.mouse.move(x, y, { steps: 6 });
    await this.page.mouse.click(x, y);
  }
}
