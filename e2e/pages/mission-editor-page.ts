import { expect, type Locator, type Page } from "@playwright/test";
import { waitForMapReady } from "../support/map-frame";
import { NEW_MISSION_VIEW as OPENING_VIEW } from "@/lib/map/default-view";
import { FittedView, type Bbox, type Pixel } from "../support/map-view";

/**
 * Where the new-mission map opens (lib/map/default-view.ts), fitted like every BaseMap: 40 px
 * padding, zoom at most 16. Needed to tell where a drawing lies.
 */
export const NEW_MISSION_VIEW: Bbox = OPENING_VIEW;

/**
 * The mission editor (/missions/new and /missions/[id]/edit): details on the left, the drawing map
 * on the right with its live area, vertex count and validity. Drawing is done as a person does
 * it, with mouse moves and clicks on the map at pixel offsets from its centre (the gestures are
 * documented at the top of components/map/draw-control.tsx).
 */
export class MissionEditorPage {
  readonly form: Locator;
  readonly title: Locator;
  readonly description: Locator;
  readonly photosNeeded: Locator;
  readonly area: Locator;
  readonly vertices: Locator;
  readonly issues: Locator;
  readonly valid: Locator;
  readonly boundsErrors: Locator;
  readonly importGeoJson: Locator;
  readonly submit: Locator;
  readonly forbidden: Locator;
  readonly toolbar: Locator;
  readonly mapFrame: Locator;
  readonly map: Locator;
  readonly basemapSwitcher: Locator;
  readonly basemapNotice: Locator;
  /** The map's search box (coordinates, offline place names, the geocoder when configured) and its results. */
  readonly search: Locator;
  readonly searchResults: Locator;
  /** What the search box says when it found nothing: what it can find instead. */
  readonly searchNothingFound: Locator;
  /** "Snaps to the corners of N other missions": the other missions in view have been loaded. */
  readonly snapStatus: Locator;
  /** The keyboard vertex editor (edit mode), its live announcements, and its selected vertex (data-vertex, 1-based). */
  readonly vertexEditor: Locator;
  readonly vertexAnnouncement: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole("form", { name: /^(New|Edit) mission$/ });
    this.title = this.form.getByLabel("Title");
    this.description = this.form.getByLabel("Description");
    this.photosNeeded = this.form.getByLabel("Photos needed");
    this.area = page.getByTestId("draft-area");
    this.vertices = page.getByTestId("draft-vertices");
    this.issues = page.getByTestId("draft-issues");
    this.valid = page.getByTestId("draft-valid");
    this.boundsErrors = page.getByTestId("bounds-errors");
    this.importGeoJson = this.form.getByLabel("Import GeoJSON");
    this.submit = this.form.getByRole("button", { name: /^(Create mission|Save changes|Saving…)$/ });
    this.forbidden = page.getByRole("alert").filter({ hasText: /You need the .* role for this page/ });
    this.toolbar = this.form.getByRole("toolbar", { name: "Drawing tools" });
    // BaseMap's frame says whether the map is loading, ready or failed; MapLibre names its canvas.
    this.mapFrame = this.form.locator("[data-map-state]");
    this.map = this.form.getByRole("region", { name: "Mission area map" });
    this.search = this.form.getByRole("searchbox", { name: "Place or coordinates" });
    this.searchNothingFound = this.form.getByTestId("search-nothing-found");
    this.searchResults = this.form.getByRole("list", { name: "Search results" }).getByRole("button");
    this.snapStatus = page.getByTestId("snap-status");
    this.vertexEditor = this.form.getByRole("application", { name: "Keyboard vertex editor" });
    this.vertexAnnouncement = page.getByTestId("vertex-announcement");
    // Streets / Imagery / Offline, when more than one basemap is configured.
    this.basemapSwitcher = this.form.getByRole("group", { name: "Basemap" });
    this.basemapNotice = this.mapFrame.getByRole("status").filter({ hasText: "Street map unreachable" });
  }

  /** A choice of the basemap switcher. */
  basemap(name: "Streets" | "Imagery" | "Offline"): Locator {
    return this.basemapSwitcher.getByRole("radio", { name, exact: true });
  }

  async gotoNew() {
    await this.page.goto("/missions/new");
  }

  async gotoEdit(missionId: string) {
    await this.page.goto(`/missions/${missionId}/edit`);
  }

  async waitForMap() {
    await waitForMapReady(this.mapFrame);
    await expect(this.map).toBeVisible();
  }

  /** A tool of the drawing toolbar: "Polygon", "Rectangle", "Edit", "Undo" or "Clear". */
  tool(name: string): Locator {
    return this.toolbar.getByRole("button", { name, exact: true });
  }

  /** Makes a tool the active one (pressing the active Edit again would leave editing). */
  async useTool(name: "Polygon" | "Rectangle" | "Edit") {
    const tool = this.tool(name);
    if ((await tool.getAttribute("aria-pressed")) !== "true") await tool.click();
    await expect(tool).toHaveAttribute("aria-pressed", "true");
  }

  /** The map canvas' box; drawing positions are offsets from its centre. */
  async mapBox() {
    const box = await this.map.boundingBox();
    if (!box) throw new Error("the map canvas is not laid out");
    return box;
  }

  /** How the map shows the new-mission view now (valid until the map is panned or zoomed). */
  async newMissionView(): Promise<FittedView> {
    const box = await this.mapBox();
    return new FittedView(NEW_MISSION_VIEW, box.width, box.height);
  }

  /** Screen position of an offset from the map's centre. */
  async at(offset: Pixel): Promise<Pixel> {
    const box = await this.mapBox();
    return { x: box.x + box.width / 2 + offset.x, y: box.y + box.height / 2 + offset.y };
  }

  /**
   * Draws a polygon with the Polygon tool: the mouse travels to each vertex in steps, as a hand
   * would, and clicks; then the polygon is closed by clicking the first vertex again, or by
   * double-clicking the last one. Offsets are CSS pixels from the map's centre, more than
   * CLOSE_DISTANCE_PX (24) apart.
   */
  async drawPolygon(offsets: [Pixel, ...Pixel[]], close: "first-vertex" | "double-click" = "first-vertex") {
    await this.useTool("Polygon");
    // Clicks land only in the viewport: on a phone the map may sit below it (the compact header
    // leaves the toolbar in view, so pressing a tool scrolls nothing).
    await this.map.scrollIntoViewIfNeeded();
    const first = await this.at(offsets[0]);
    const points = await Promise.all(offsets.map((o) => this.at(o)));
    const mouse = this.page.mouse;
    for (const [i, p] of points.entries()) {
      await mouse.move(p.x, p.y, { steps: 10 });
      if (close === "double-click" && i === points.length - 1) await mouse.dblclick(p.x, p.y);
      else await mouse.click(p.x, p.y);
      // A person's pause between vertices: two quick clicks would read as a double click.
      await this.page.waitForTimeout(300);
    }
    if (close === "first-vertex") {
      await mouse.move(first.x, first.y, { steps: 10 });
      await mouse.click(first.x, first.y);
    }
  }
}
