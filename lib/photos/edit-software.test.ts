// The edit-software table, entry by entry: the strings each program writes are named as that
// program, and what cameras and phones write themselves is not named at all.
import { describe, expect, it } from "vitest";
import { EDIT_SOFTWARE, matchEditSoftware } from "./edit-software";

/** Metadata values these programs write (EXIF Software, XMP CreatorTool / toolkit), per table entry. */
const WRITTEN_BY: Record<string, string[]> = {
  "Windows Photo Gallery": [
    "Microsoft Windows Photo Gallery 6.0.6001.18000",
    "Microsoft Windows Photo Gallery 6.0.6000.16386",
    "Microsoft Windows Live Photo Gallery14.0.8081.709",
    "Microsoft Photo Gallery 16.4.3528.331",
    "Windows Live Photo Gallery",
  ],
  "Windows Photo Viewer": ["Microsoft Windows Photo Viewer 6.1.7600.16385", "Microsoft Windows Photo Viewer 10.0.14393.0"],
  "Windows Photos": ["Windows Photo Editor 10.0.10011.16384", "Microsoft Windows Photos", "Microsoft Photos 2024.11050.3002.0"],
  "Adobe Lightroom": [
    "Adobe Photoshop Lightroom Classic 13.1 (Windows)",
    "Adobe Photoshop Lightroom 4.2 (Windows)",
    "Adobe Lightroom 7.0 (Android)",
    "Lightroom Mobile",
  ],
  "Adobe Photoshop": [
    "Adobe Photoshop 25.0 (Macintosh)",
    "Adobe Photoshop CS6 (Windows)",
    "Adobe Photoshop Camera Raw 16.0 (Windows)",
    "Adobe Photoshop Express",
  ],
  Snapseed: ["Snapseed 2.0", "Snapseed"],
  GIMP: ["GIMP 2.10.34", "GIMP 2.4.5"],
  "Affinity Photo": ["Affinity Photo 2", "Affinity Photo 1.10.6"],
  Pixelmator: ["Pixelmator Pro 3.5.2", "Pixelmator 3.9"],
  "Capture One": ["Capture One 23 Macintosh", "Capture One Pro 21", "Capture One Fujifilm"],
  darktable: ["darktable 4.6.1", "darktable release-4.4.2"],
  RawTherapee: ["RawTherapee 5.9", "RawTherapee 5.8-3"],
  Luminar: ["Luminar Neo", "Luminar AI", "Skylum Luminar 4.3.0"],
  PicsArt: ["PicsArt", "Picsart Photo Studio"],
  VSCO: ["VSCO", "VSCOcam", "VSCO 1.0"],
  "Apple Photos (Mac)": ["Photos 9.0", "Photos 1.0.1", "iPhoto 9.6.1"],
  "Google Photos": ["Google Photos", "Google Photos Editor"],
  "Paint.NET": ["Paint.NET v3.36", "paint.net 5.0.12"],
  Picasa: ["Picasa", "Picasa 3.0"],
  ACDSee: ["ACDSee Pro 9", "ACDSee Photo Studio Ultimate 2024"],
  PhotoScape: ["PhotoScape X", "PhotoScape"],
  Facetune: ["Facetune2", "Facetune"],
  Meitu: ["Meitu", "MeituPic"],
  Canva: ["Canva", "Canva (Renderer)"],
  ExifTool: ["Image::ExifTool 12.57", "exiftool"],
  Exiv2: ["Exiv2 0.27.5", "exiv2"],
  "an EXIF editor": ["Photo Exif Editor", "EXIF Eraser", "ExifEditor"],
  "a geotagging tool": ["Fake GPS Location", "GPS Faker", "Geotagger 2.1", "GeoTag Photos Pro"],
};

describe("EDIT_SOFTWARE", () => {
  it("has examples for every entry, and no examples for entries it does not have", () => {
    expect(Object.keys(WRITTEN_BY).sort()).toEqual(EDIT_SOFTWARE.map((e) => e.name).sort());
  });

  for (const entry of EDIT_SOFTWARE) {
    it(`names ${entry.name}`, () => {
      const examples = WRITTEN_BY[entry.name] ?? [];
      expect(examples.length).toBeGreaterThan(0);
      for (const written of examples) expect(matchEditSoftware(written)?.name, written).toBe(entry.name);
    });
  }

  it("names nobody for what cameras and phones write themselves", () => {
    const firmware = [
      // Camera firmware
      "Ver.1.00",
      "Ver.1.02 ",
      "Firmware Version 1.1.0",
      "COOLPIX P6000V1.0",
      "Nikon Transfer 1.1 W",
      "ILCE-7M3 v3.01",
      "Digital Camera FinePix XP130 Ver1.00",
      "E-M10MarkII Ver1.2",
      // iOS and iPadOS (the Software tag is the OS version)
      "17.4.1",
      "16.3",
      "iOS 17.4.1",
      // Android camera apps and firmware
      "HDR+ 1.0.641377693zd",
      "Pixel Camera 9.2",
      "G998BXXU5CVDD",
      "S918BXXS3BWK4",
      "MediaTek Camera Application",
      "OnePlus Camera",
      "Xiaomi Camera",
      "Camera 2.0",
      "Android",
      "Google",
      "Jolla Camera",
      "",
      "   ",
      // "Photos" inside another name, and our own simulator
      "Photos Companion Camera 2",
      "photo-missions simulator",
    ];
    for (const written of firmware) expect(matchEditSoftware(written), JSON.stringify(written)).toBeNull();
  });
});
