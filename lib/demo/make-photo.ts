// Makes realistic geotagged JPEGs for the demo simulator and tests: a textured scene (so sharpness
// and exposure measure like a photo's), with the EXIF a phone writes — GPS with accuracy and
// compass direction, capture time with its UTC offset, device make and model.
import sharp from "sharp";
import { seededRandom } from "./seeded-random";

export interface PhotoSpec {
  /** A real picture to use instead of the drawn street scene (scaled to width × height); the EXIF is written as for a drawn one. */
  scene?: Buffer;
  lat?: number;
  lng?: number;
  altitudeM?: number;
  accuracyM?: number;
  directionDeg?: number;
  capturedAt?: Date;
  utcOffsetMinutes?: number;
  make?: string;
  model?: string;
  /** The EXIF Software tag: the program that wrote the file (default: the simulator). */
  software?: string;
  width?: number;
  height?: number;
  /** Gaussian blur sigma: > 3 reads as a blurry photo. */
  blur?: number;
  /** Multiplies brightness: < 0.25 reads as a dark photo. */
  exposure?: number;
  /** Varies the scene so photos are not near-duplicates of each other. */
  seed?: number;
  /** Leave out all EXIF (as a screenshot or a stripped copy would). */
  withoutExif?: boolean;
  /** A shop sign with this name over the street (for brand checks); needs a system font (fontconfig). */
  sign?: string;
}

const xmlText = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A light sign panel with the name in dark capitals, across the middle of the scene. */
function signSvg(width: number, height: number, name: string): string {
  const fontSize = Math.round(height * 0.09);
  const panelWidth = Math.min(width * 0.9, fontSize * 0.75 * name.length + fontSize);
  const x = (width - panelWidth) / 2;
  const y = height * 0.3;
  return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${panelWidth.toFixed(1)}" height="${(fontSize * 1.6).toFixed(1)}" fill="#f4efe2" stroke="#3b2f2f" stroke-width="4"/>
  <text x="${(width / 2).toFixed(1)}" y="${(y + fontSize * 1.15).toFixed(1)}" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="${fontSize}" fill="#2b1d14">${xmlText(name.toUpperCase())}</text>`;
}

function rational(value: number, denominator = 10_000): string {
  return `${Math.round(Math.abs(value) * denominator)}/${denominator}`;
}

function dms(value: number): string {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutesFull = (abs - degrees) * 60;
  const minutes = Math.floor(minutesFull);
  const seconds = (minutesFull - minutes) * 60;
  return `${degrees}/1 ${minutes}/1 ${Math.round(seconds * 10_000)}/10000`;
}

function exifDate(date: Date, offsetMinutes: number): { local: string; offset: string } {
  const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return {
    local: `${local.slice(0, 10).replaceAll("-", ":")} ${local.slice(11, 19)}`,
    offset: `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`,
  };
}

function sceneSvg(width: number, height: number, seed: number, sign?: string): string {
  const rnd = seededRandom(seed);
  const hue = Math.floor(rnd() * 360);
  const shapes: string[] = [];
  // Buildings: rectangles with window grids give the edges a sharpness measure looks for.
  for (let i = 0; i < 9; i++) {
    const w = width * (0.06 + rnd() * 0.12);
    const h = height * (0.25 + rnd() * 0.45);
    const x = rnd() * (width - w);
    const y = height * 0.85 - h;
    const shade = 35 + Math.floor(rnd() * 35);
    shapes.push(
      `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" fill="hsl(${(hue + i * 23) % 360},25%,${shade}%)"/>`,
    );
    for (let wy = y + 8; wy < y + h - 12; wy += 18) {
      for (let wx = x + 6; wx < x + w - 10; wx += 14) {
        shapes.push(
          `<rect x="${wx.toFixed(1)}" y="${wy.toFixed(1)}" width="7" height="10" fill="hsl(48,${50 + Math.floor(rnd() * 40)}%,${60 + Math.floor(rnd() * 30)}%)"/>`,
        );
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${(hue + 180) % 360},60%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 200) % 360},40%,88%)"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  <rect y="${height * 0.85}" width="100%" height="${height * 0.15}" fill="hsl(30,15%,40%)"/>
  ${shapes.join("")}
  ${sign ? signSvg(width, height, sign) : ""}
</svg>`;
}

export async function makePhoto(spec: PhotoSpec = {}): Promise<Buffer> {
  const width = spec.width ?? 1024;
  const height = spec.height ?? 768;
  let image = spec.scene ? sharp(spec.scene).resize(width, height, { fit: "fill" }) : sharp(Buffer.from(sceneSvg(width, height, spec.seed ?? 1, spec.sign)));
  if (spec.blur && spec.blur > 0.3) image = image.blur(spec.blur);
  if (spec.exposure !== undefined && spec.exposure !== 1) image = image.linear(spec.exposure, 0);
  const jpeg = image.jpeg({ quality: 85 });
  if (spec.withoutExif) return jpeg.toBuffer();

  const captured = exifDate(spec.capturedAt ?? new Date(), spec.utcOffsetMinutes ?? 60);
  const gps: Record<string, string> = {};
  if (spec.lat !== undefined && spec.lng !== undefined) {
    Object.assign(gps, {
      GPSLatitudeRef: spec.lat < 0 ? "S" : "N",
      GPSLatitude: dms(spec.lat),
      GPSLongitudeRef: spec.lng < 0 ? "W" : "E",
      GPSLongitude: dms(spec.lng),
    });
    if (spec.altitudeM !== undefined) Object.assign(gps, { GPSAltitudeRef: spec.altitudeM < 0 ? "1" : "0", GPSAltitude: rational(spec.altitudeM, 100) });
    if (spec.accuracyM !== undefined) gps.GPSHPositioningError = rational(spec.accuracyM, 100);
    if (spec.directionDeg !== undefined) Object.assign(gps, { GPSImgDirectionRef: "T", GPSImgDirection: rational(spec.directionDeg, 100) });
  }
  return jpeg
    .withExif({
      IFD0: { Make: spec.make ?? "Google", Model: spec.model ?? "Pixel 8", Orientation: "1", Software: spec.software ?? "photo-missions simulator" },
      IFD2: { DateTimeOriginal: captured.local, OffsetTimeOriginal: captured.offset },
      ...(Object.keys(gps).length > 0 ? { IFD3: gps } : {}),
    })
    .toBuffer();
}
