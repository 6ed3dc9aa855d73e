"use client";

/**
 * Drawing and editing of one mission polygon with terra-draw, as a MapLibre control mounted
 * through react-map-gl's useControl and controlled like an input: `value` in, `onChange` out.
 *
 * Gestures (what e2e tests rely on):
 * - Polygon mode: click each vertex. Close the polygon by clicking the first vertex again, or by
 *   clicking the last vertex again (a double-click on the last vertex does that); Enter closes
 *   too and Escape cancels. A click within POINTER_DISTANCE_PX of the first or the last vertex
 *   closes instead of adding a vertex, so place vertices further apart than that. Closing needs
 *   at least three vertices.
 * - Rectangle mode: click one corner, move the mouse, click the opposite corner (pressing at one
 *   corner and dragging to the other works too).
 * - Edit mode: drag a vertex to move it, drag a midpoint to insert a vertex, right-click a
 *   vertex to delete it (a triangle keeps its three), drag inside the polygon to move it.
 *
 * Snapping: while drawing and while dragging a vertex, a vertex within SNAP_DISTANCE_PX of one of
 * `snapVertices` (the organisation's other missions) lands exactly on it, so neighbours share
 * corners; terra-draw shows the snap target under the pointer.
 *
 * onChange fires once per finished gesture (never while the mouse moves) with coordinates rounded
 * to 6 decimals. Starting a new drawing hides the current polygon; cancelling the drawing shows
 * `value` again. Polygons with holes are shown but cannot be edited (terra-draw has no holes).
 */
import { useLocale } from "next-intl";
import { directionOf } from "@/lib/i18n/locales";
import type { IControl, Map as MaplibreMap } from "maplibre-gl";
import { useEffect } from "react";
import { useControl } from "react-map-gl/maplibre";
import {
  TerraDraw,
  TerraDrawPolygonMode,
  TerraDrawRectangleMode,
  TerraDrawRenderMode,
  TerraDrawSelectMode,
  type GeoJSONStoreFeatures,
  type SnapToCustom,
} from "terra-draw";
import { TerraDrawMapLibreGLAdapter } from "terra-draw-maplibre-gl-adapter";

import { COORDINATE_DECIMALS, roundCoordinate, roundPolygonCoordinates, samePolygon } from "@/lib/geo/coordinate-precision";
import type { PolygonGeometry } from "@/lib/geo/polygon";

import { nearestVertexWithin, type LngLat } from "./snap-to-vertices";
import { lockedModeStyles, polygonModeStyles, rectangleModeStyles, selectModeStyles } from "./draw-styles";

/** "idle": the polygon is shown, the map only pans and zooms. */
export type DrawMode = "polygon" | "rectangle" | "edit" | "idle";

/**
 * Pixels around a vertex within which a click closes the polygon (first or last vertex while
 * drawing) or grabs a vertex or midpoint (editing). terra-draw's default of 40 px made clicks
 * meant as new vertices close the polygon, and drags meant to move it insert vertices.
 */
export const POINTER_DISTANCE_PX = 24;

/** Prefix of the MapLibre source and layer ids terra-draw adds ("draft-polygon", …). */
export const DRAFT_LAYER_PREFIX = "draft";

const TERRA_DRAW_MODES: Record<DrawMode, string> = {
  polygon: "polygon",
  rectangle: "rectangle",
  edit: "select",
  idle: "static",
};

const LOCKED_MODE = "locked";

const editable = (toCustom: SnapToCustom) => ({
  feature: {
    draggable: true,
    coordinates: { draggable: true, deletable: true, midpoints: { draggable: true }, snappable: { toCustom } },
  },
});

type FeatureId = string | number;

interface Handlers {
  onChange: (value: PolygonGeometry | null) => void;
  onModeChange?: (mode: DrawMode) => void;
}

function polygonOf(feature: GeoJSONStoreFeatures | undefined): PolygonGeometry | null {
  if (feature?.geometry.type !== "Polygon") return null;
  return roundPolygonCoordinates({
    type: "Polygon",
    coordinates: feature.geometry.coordinates.map((ring) => ring.map((position) => [position[0] ?? 0, position[1] ?? 0])),
  });
}

/** The imperative half: owns the TerraDraw instance for as long as the control is on a map. */
class PolygonDrawControl implements IControl {
  private draw: TerraDraw | null = null;
  private map: MaplibreMap | null = null;
  private container: HTMLElement | null = null;
  private value: PolygonGeometry | null;
  private mode: DrawMode;
  /** The polygon standing for `value` in terra-draw's store. */
  private committedId: FeatureId | null = null;
  /** A polygon being drawn, not finished yet. */
  private drawingId: FeatureId | null = null;
  /** Set while this class edits the store itself, so its own edits are not reported back. */
  private applying = false;
  private handlers: Handlers;
  private snapVertices: readonly LngLat[] = [];

  constructor(value: PolygonGeometry | null, mode: DrawMode, handlers: Handlers) {
    this.value = value;
    this.mode = mode;
    this.handlers = handlers;
  }

  onAdd(map: MaplibreMap): HTMLElement {
    this.map = map;
    this.container = document.createElement("div");
    this.container.hidden = true;
    // terra-draw adds its sources and layers at once, which needs a loaded style.
    if (map.isStyleLoaded()) this.start();
    else map.once("idle", this.start);
    return this.container;
  }

  onRemove(): void {
    this.map?.off("idle", this.start);
    this.map?.off("styledata", this.keepOnTop);
    if (this.draw) {
      this.draw.off("change", this.handleChange);
      this.draw.off("finish", this.handleFinish);
      this.draw.stop();
    }
    this.draw = null;
    this.map = null;
    this.committedId = null;
    this.drawingId = null;
    this.container?.remove();
    this.container = null;
  }

  setHandlers(handlers: Handlers): void {
    this.handlers = handlers;
  }

  setSnapVertices(vertices: readonly LngLat[]): void {
    this.snapVertices = vertices;
  }

  /** terra-draw asks on every pointer move and click; the answer is a stored vertex, unchanged. */
  private snap: SnapToCustom = (event, context) => nearestVertexWithin({ x: event.containerX, y: event.containerY }, this.snapVertices, context.project);

  setValue(value: PolygonGeometry | null): void {
    this.value = value;
    if (!this.draw) return;
    const shown = this.committedId === null ? null : polygonOf(this.draw.getSnapshotFeature(this.committedId));
    if (!samePolygon(shown, value === null ? null : roundPolygonCoordinates(value))) this.load();
  }

  setMode(mode: DrawMode): void {
    this.mode = mode;
    if (!this.draw) return;
    const name = TERRA_DRAW_MODES[mode];
    if (this.draw.getMode() !== name) this.draw.setMode(name);
    this.selectForEditing();
  }

  private start = (): void => {
    if (!this.map || this.draw) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map: this.map, coordinatePrecision: COORDINATE_DECIMALS, prefixId: DRAFT_LAYER_PREFIX }),
      modes: [
        new TerraDrawPolygonMode({ styles: polygonModeStyles, pointerDistance: POINTER_DISTANCE_PX, snapping: { toCustom: this.snap } }),
        new TerraDrawRectangleMode({ styles: rectangleModeStyles, drawInteraction: "click-move-or-drag" }),
        new TerraDrawSelectMode({
          styles: selectModeStyles,
          pointerDistance: POINTER_DISTANCE_PX,
          flags: { polygon: editable(this.snap), rectangle: editable(this.snap) },
          // One polygon, always selected while editing: a stray click must not hide the handles,
          // and the Delete key must not remove it behind the toolbar's back (Clear does that).
          allowManualDeselection: false,
          keyEvents: { deselect: null, delete: null, rotate: null, scale: null },
        }),
        new TerraDrawRenderMode({ modeName: LOCKED_MODE, styles: lockedModeStyles }),
      ],
    });
    draw.start();
    draw.on("change", this.handleChange);
    draw.on("finish", this.handleFinish);
    this.draw = draw;
    this.map.on("styledata", this.keepOnTop);
    this.keepOnTop();
    this.load();
    this.setMode(this.mode);
  };

  /**
   * Keeps the draft and its handles above every other layer: data layers mounted after this
   * control (react-map-gl adds layers a tick after rendering) would otherwise cover them.
   */
  private keepOnTop = (): void => {
    const map = this.map;
    if (!map || !this.draw) return;
    const order = map.getLayersOrder();
    const own = order.filter((id) => id.startsWith(`${DRAFT_LAYER_PREFIX}-`));
    const onTop = own.every((id, index) => order[order.length - own.length + index] === id);
    if (!onTop) for (const id of own) map.moveLayer(id);
  };

  /** Replaces whatever polygon the store shows with `value`. */
  private load(): void {
    const draw = this.draw;
    if (!draw) return;
    this.applying = true;
    try {
      this.removePolygons(this.drawingId);
      this.committedId = null;
      if (this.value) {
        const geometry = roundPolygonCoordinates(this.value);
        // terra-draw refuses polygons with holes; show those read-only instead of not at all.
        const mode = geometry.coordinates.length === 1 ? "polygon" : LOCKED_MODE;
        const [result] = draw.addFeatures([{ type: "Feature", geometry, properties: { mode } }]);
        if (result?.valid) this.committedId = result.id ?? null;
      }
    } finally {
      this.applying = false;
    }
    this.selectForEditing();
  }

  private removePolygons(keep: FeatureId | null): void {
    const draw = this.draw;
    if (!draw) return;
    const ids = draw
      .getSnapshot()
      .filter((feature) => feature.geometry.type === "Polygon" && feature.id !== undefined && feature.id !== keep)
      .flatMap((feature) => (feature.id === undefined ? [] : [feature.id]));
    if (ids.length > 0) draw.removeFeatures(ids);
  }

  private selectForEditing(): void {
    const draw = this.draw;
    if (!draw || this.mode !== "edit" || this.committedId === null) return;
    if (draw.getSnapshotFeature(this.committedId)?.properties.mode === LOCKED_MODE) return;
    draw.selectFeature(this.committedId);
  }

  private emit(value: PolygonGeometry | null): void {
    this.value = value;
    this.handlers.onChange(value);
  }

  private handleChange = (ids: FeatureId[], type: string): void => {
    const draw = this.draw;
    if (!draw || this.applying) return;
    if (type === "create") {
      const started = ids.find((id) => {
        const feature = draw.getSnapshotFeature(id);
        return feature?.geometry.type === "Polygon" && feature.properties.currentlyDrawing === true;
      });
      if (started === undefined) return;
      this.drawingId = started;
      // Deferred: terra-draw is still inside its click handler, creating the new polygon.
      queueMicrotask(() => {
        if (this.draw !== draw || this.drawingId !== started) return;
        this.applying = true;
        try {
          this.removePolygons(started);
          this.committedId = null;
        } finally {
          this.applying = false;
        }
      });
    } else if (type === "delete") {
      if (this.drawingId !== null && ids.includes(this.drawingId)) {
        // A drawing was cancelled (Escape, or a mode change): show the current value again.
        this.drawingId = null;
        queueMicrotask(() => {
          if (this.draw === draw) this.load();
        });
      } else if (this.committedId !== null && ids.includes(this.committedId)) {
        this.committedId = null;
        this.emit(null);
      }
    }
  };

  private handleFinish = (id: FeatureId, context: { action: string }): void => {
    const draw = this.draw;
    if (!draw) return;
    const polygon = polygonOf(draw.getSnapshotFeature(id));
    if (polygon === null) return;
    const drawn = context.action === "draw";
    if (drawn) {
      this.drawingId = null;
      this.committedId = id;
    } else if (id !== this.committedId) {
      return;
    }
    this.emit(polygon);
    if (drawn) this.handlers.onModeChange?.("edit");
  };
}

export interface DrawControlProps {
  /** The polygon to show and edit; null for none. */
  value: PolygonGeometry | null;
  /** Called with the new polygon after each finished drawing or edit (never mid-gesture). */
  onChange: (value: PolygonGeometry | null) => void;
  mode: DrawMode;
  /** The control asks for "edit" after a drawing is finished, so its vertices can be adjusted. */
  onModeChange?: (mode: DrawMode) => void;
  /** Vertices a drawn or dragged vertex snaps to (rounded to 6 decimals, as terra-draw stores them). */
  snapVertices?: readonly LngLat[];
}

const NO_VERTICES: readonly LngLat[] = [];

/** Must be a child of BaseMap (or any react-map-gl map). Renders nothing itself. */
export function DrawControl({ value, onChange, mode, onModeChange, snapVertices = NO_VERTICES }: DrawControlProps) {
  const rtl = directionOf(useLocale()) === "rtl";
  const control = useControl(() => new PolygonDrawControl(value, mode, { onChange, onModeChange }), { position: rtl ? "top-right" : "top-left" });

  useEffect(() => {
    control.setHandlers({ onChange, onModeChange });
  }, [control, onChange, onModeChange]);

  useEffect(() => {
    control.setSnapVertices(snapVertices.map(([lng, lat]) => [roundCoordinate(lng), roundCoordinate(lat)]));
  }, [control, snapVertices]);

  useEffect(() => {
    control.setValue(value);
  }, [control, value]);

  useEffect(() => {
    control.setMode(mode);
  }, [control, mode]);

  return null;
}
