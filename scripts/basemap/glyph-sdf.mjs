// Signed distance fields for MapLibre glyphs, without a canvas.
//
// A glyph outline (opentype.js path commands, in pixels, y down, baseline at y = 0) is rasterised
// to anti-aliased coverage, then turned into an SDF with the Euclidean distance transform of
// @mapbox/tiny-sdf (Felzenszwalb & Huttenlocher), which MapLibre itself uses for local glyphs.
// The output matches what MapLibre expects from a glyph PBF: a bitmap of (width + 2·buffer) ×
// (height + 2·buffer) bytes where 191 (= 255·(1 − cutoff)) is the outline.

const INF = 1e20;
// Curves are flattened into this many straight pieces; at 24 px a piece is under a pixel long.
const QUADRATIC_STEPS = 8;
const CUBIC_STEPS = 12;
// Vertical samples per pixel row; horizontal coverage is computed exactly.
const SUBSAMPLES = 16;

/** Flattens path commands into closed polygons (arrays of [x, y]). */
export function flattenPath(commands) {
  const contours = [];
  let contour = [];
  let x = 0;
  let y = 0;
  const close = () => {
    if (contour.length > 2) contours.push(contour);
    contour = [];
  };
  for (const command of commands) {
    switch (command.type) {
      case "M":
        close();
        x = command.x;
        y = command.y;
        contour.push([x, y]);
        break;
      case "L":
        x = command.x;
        y = command.y;
        contour.push([x, y]);
        break;
      case "Q":
        for (let i = 1; i <= QUADRATIC_STEPS; i++) {
          const t = i / QUADRATIC_STEPS;
          const u = 1 - t;
          contour.push([u * u * x + 2 * u * t * command.x1 + t * t * command.x, u * u * y + 2 * u * t * command.y1 + t * t * command.y]);
        }
        x = command.x;
        y = command.y;
        break;
      case "C":
        for (let i = 1; i <= CUBIC_STEPS; i++) {
          const t = i / CUBIC_STEPS;
          const u = 1 - t;
          const a = u * u * u;
          const b = 3 * u * u * t;
          const c = 3 * u * t * t;
          const d = t * t * t;
          contour.push([a * x + b * command.x1 + c * command.x2 + d * command.x, a * y + b * command.y1 + c * command.y2 + d * command.y]);
        }
        x = command.x;
        y = command.y;
        break;
      case "Z":
        close();
        break;
      default:
        throw new Error(`unknown path command ${command.type}`);
    }
  }
  close();
  return contours;
}

/** Adds the coverage of the horizontal span [x0, x1) to one row of pixels (weight per sub-row). */
function addSpan(row, width, x0, x1, weight) {
  const start = Math.max(0, x0);
  const end = Math.min(width, x1);
  if (end <= start) return;
  const first = Math.floor(start);
  const last = Math.floor(end);
  if (first === last) {
    row[first] += (end - start) * weight;
    return;
  }
  row[first] += (first + 1 - start) * weight;
  for (let px = first + 1; px < last; px++) row[px] += weight;
  if (last < width) row[last] += (end - last) * weight;
}

/**
 * Coverage (0..1) of each pixel of a width × height grid by the polygons, non-zero winding as in
 * TrueType. Polygons are in grid coordinates (pixel (i, j) spans [i, i+1) × [j, j+1)).
 */
export function rasterise(contours, width, height) {
  const coverage = new Float64Array(width * height);
  const edges = [];
  for (const contour of contours) {
    for (let i = 0; i < contour.length; i++) {
      const [ax, ay] = contour[i];
      const [bx, by] = contour[(i + 1) % contour.length];
      if (ay !== by) edges.push({ ax, ay, bx, by, winding: by > ay ? 1 : -1 });
    }
  }
  const weight = 1 / SUBSAMPLES;
  const crossings = [];
  for (let py = 0; py < height; py++) {
    const row = coverage.subarray(py * width, (py + 1) * width);
    for (let s = 0; s < SUBSAMPLES; s++) {
      const y = py + (s + 0.5) / SUBSAMPLES;
      crossings.length = 0;
      for (const edge of edges) {
        const low = Math.min(edge.ay, edge.by);
        const high = Math.max(edge.ay, edge.by);
        if (y < low || y >= high) continue;
        const t = (y - edge.ay) / (edge.by - edge.ay);
        crossings.push({ x: edge.ax + t * (edge.bx - edge.ax), winding: edge.winding });
      }
      crossings.sort((a, b) => a.x - b.x);
      let winding = 0;
      let spanStart = 0;
      for (const crossing of crossings) {
        const wasInside = winding !== 0;
        winding += crossing.winding;
        if (!wasInside && winding !== 0) spanStart = crossing.x;
        else if (wasInside && winding === 0) addSpan(row, width, spanStart, crossing.x, weight);
      }
    }
  }
  for (let i = 0; i < coverage.length; i++) coverage[i] = Math.min(1, coverage[i]);
  return coverage;
}

// 1D squared distance transform (tiny-sdf's edt1d).
function edt1d(grid, offset, stride, length, f, v, z) {
  v[0] = 0;
  z[0] = -INF;
  z[1] = INF;
  f[0] = grid[offset];
  for (let q = 1, k = 0, s = 0; q < length; q++) {
    f[q] = grid[offset + q * stride];
    const q2 = q * q;
    do {
      const r = v[k];
      s = (f[q] - f[r] + q2 - r * r) / (q - r) / 2;
    } while (s <= z[k] && --k > -1);
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = INF;
  }
  for (let q = 0, k = 0; q < length; q++) {
    while (z[k + 1] < q) k++;
    const r = v[k];
    const qr = q - r;
    grid[offset + q * stride] = f[r] + qr * qr;
  }
}

// 2D squared distance transform over a sub-rectangle of a grid (tiny-sdf's edt).
function edt(data, x0, y0, width, height, gridSize, f, v, z) {
  for (let x = x0; x < x0 + width; x++) edt1d(data, y0 * gridSize + x, gridSize, height, f, v, z);
  for (let y = y0; y < y0 + height; y++) edt1d(data, y * gridSize + x0, 1, width, f, v, z);
}

/**
 * SDF bitmap of a glyph whose coverage is glyphWidth × glyphHeight, padded by `buffer` pixels on
 * every side. Same arithmetic as TinySDF.draw, including its sub-pixel treatment of grey pixels.
 */
export function coverageToSdf(coverage, glyphWidth, glyphHeight, { buffer, radius, cutoff }) {
  const width = glyphWidth + 2 * buffer;
  const height = glyphHeight + 2 * buffer;
  const len = width * height;
  const gridOuter = new Float64Array(len).fill(INF);
  const gridInner = new Float64Array(len);
  const size = Math.max(width, height);
  const f = new Float64Array(size);
  const z = new Float64Array(size + 1);
  const v = new Uint16Array(size);
  for (let y = 0; y < glyphHeight; y++) {
    for (let x = 0; x < glyphWidth; x++) {
      // Quantised like a canvas alpha channel, so the result matches TinySDF's.
      const a = Math.round(coverage[y * glyphWidth + x] * 255) / 255;
      if (a === 0) continue;
      const j = (y + buffer) * width + x + buffer;
      if (a === 1) {
        gridOuter[j] = 0;
        gridInner[j] = INF;
      } else {
        const d = 0.5 - a;
        gridOuter[j] = d > 0 ? d * d : 0;
        gridInner[j] = d < 0 ? d * d : 0;
      }
    }
  }
  edt(gridOuter, 0, 0, width, height, width, f, v, z);
  edt(gridInner, buffer, buffer, glyphWidth, glyphHeight, width, f, v, z);
  const data = new Uint8Array(len);
  for (let i = 0; i < len; i++) {
    const d = Math.sqrt(gridOuter[i]) - Math.sqrt(gridInner[i]);
    data[i] = Math.max(0, Math.min(255, Math.round(255 - 255 * (d / radius + cutoff))));
  }
  return { data, width, height };
}

/**
 * Rasterises one glyph path (pixels, y down, pen at the origin on the baseline) into MapLibre's
 * glyph record: bitmap plus width/height (ink box), left (ink box left of the pen), top (ink box
 * top above the baseline, minus `baseline`), advance.
 */
export function renderGlyph(commands, advance, { buffer, radius, cutoff, baseline }) {
  const contours = flattenPath(commands);
  const points = contours.flat();
  if (points.length === 0) {
    return { width: 0, height: 0, left: 0, top: -baseline, advance: Math.round(advance), bitmap: null };
  }
  const minX = Math.floor(Math.min(...points.map((p) => p[0])));
  const maxX = Math.ceil(Math.max(...points.map((p) => p[0])));
  const minY = Math.floor(Math.min(...points.map((p) => p[1])));
  const maxY = Math.ceil(Math.max(...points.map((p) => p[1])));
  const glyphWidth = Math.max(1, maxX - minX);
  const glyphHeight = Math.max(1, maxY - minY);
  const shifted = contours.map((contour) => contour.map(([x, y]) => [x - minX, y - minY]));
  const coverage = rasterise(shifted, glyphWidth, glyphHeight);
  const sdf = coverageToSdf(coverage, glyphWidth, glyphHeight, { buffer, radius, cutoff });
  return {
    width: glyphWidth,
    height: glyphHeight,
    left: minX,
    // minY is the ink top in y-down pixels, so -minY is its height above the baseline.
    top: -minY - baseline,
    advance: Math.round(advance),
    bitmap: sdf.data,
  };
}
