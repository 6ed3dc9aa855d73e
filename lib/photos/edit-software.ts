// The one table of programs that rewrite or retouch photos, matched against what a file's
// metadata names as its writer (EXIF Software / ProcessingSoftware, XMP CreatorTool, the XMP
// toolkit, XMP history's softwareAgent). Each entry has a test (./edit-software.test.ts) with the
// strings these programs are known to write, and the negatives — camera firmware ("Ver.1.00"),
// a phone's OS version ("17.4.1"), Android camera apps ("HDR+ 1.0.…") — must stay unmatched.
//
// What is not here, on purpose:
// - Apple's Photos app on iOS/iPadOS writes no editor name when it edits or adjusts a photo: the
//   rendered file keeps Software = the iOS version (e.g. "17.4.1"), exactly as an untouched shot
//   does, so no pattern can tell the two apart; its traces are the ModifyDate and, for a time or
//   place adjustment, the changed EXIF times — read by edit-traces.ts, not by this table.
// - Transfer and viewing tools that copy bytes without rewriting them ("Nikon Transfer").

export interface EditSoftware {
  /** The program's name, as the reviewer reads it. */
  name: string;
  /** Matches the metadata string that program writes (case-insensitive where the program varies it). */
  pattern: RegExp;
}

export const EDIT_SOFTWARE: readonly EditSoftware[] = [
  // "Microsoft Windows Photo Gallery 6.0.6001.18000" (Vista), "Microsoft Windows Live Photo Gallery14.0.8081.709",
  // "Microsoft Photo Gallery 16.4.3528.331", "Windows Live Photo Gallery"
  { name: "Windows Photo Gallery", pattern: /\b(?:microsoft|windows)\b.*photo gallery/i },
  // "Microsoft Windows Photo Viewer 6.1.7600.16385": re-saves the file when it rotates it.
  { name: "Windows Photo Viewer", pattern: /\bwindows photo viewer\b/i },
  // Windows 10/11 Photos app: "Windows Photo Editor 10.0.10011.16384", "Microsoft Windows Photos", "Microsoft Photos".
  { name: "Windows Photos", pattern: /\bwindows photo editor\b|^microsoft (?:windows )?photos\b/i },
  // Lightroom before Photoshop: "Adobe Photoshop Lightroom Classic 13.1 (Windows)" names both.
  { name: "Adobe Lightroom", pattern: /lightroom/i },
  // "Adobe Photoshop 25.0 (Macintosh)", "Adobe Photoshop CS6 (Windows)", "Adobe Photoshop Camera Raw 16.0 (Windows)", "Adobe Photoshop Express".
  { name: "Adobe Photoshop", pattern: /photoshop/i },
  { name: "Snapseed", pattern: /snapseed/i },
  // "GIMP 2.10.34"; not a word inside another ("Gimpel").
  { name: "GIMP", pattern: /\bgimp\b/i },
  { name: "Affinity Photo", pattern: /affinity photo/i },
  // "Pixelmator Pro 3.5.2", "Pixelmator 3.9"
  { name: "Pixelmator", pattern: /pixelmator/i },
  // "Capture One 23 Macintosh", "Capture One Pro 21", "Capture One Fujifilm"
  { name: "Capture One", pattern: /\bcapture one\b/i },
  // "darktable 4.6.1", "darktable release-4.4.2"
  { name: "darktable", pattern: /\bdarktable\b/i },
  { name: "RawTherapee", pattern: /rawtherapee/i },
  // "Luminar Neo", "Luminar AI", "Skylum Luminar 4.3.0"
  { name: "Luminar", pattern: /\bluminar\b/i },
  // "PicsArt", "Picsart Photo Studio"
  { name: "PicsArt", pattern: /\bpicsart\b/i },
  // "VSCO", "VSCOcam", "VSCO 1.0"
  { name: "VSCO", pattern: /^vsco|\bvsco\b/i },
  // macOS Photos ("Photos 9.0") and its predecessor iPhoto ("iPhoto 9.6.1"), whole value only:
  // "Photos" alone within a longer name is someone else's.
  { name: "Apple Photos (Mac)", pattern: /^(?:photos|iphoto) \d+(?:\.\d+)*$/i },
  { name: "Google Photos", pattern: /\bgoogle photos\b/i },
  { name: "Paint.NET", pattern: /paint\.net/i },
  { name: "Picasa", pattern: /picasa/i },
  { name: "ACDSee", pattern: /\bacdsee\b/i },
  { name: "PhotoScape", pattern: /\bphotoscape\b/i },
  { name: "Facetune", pattern: /facetune/i },
  { name: "Meitu", pattern: /^meitu/i },
  { name: "Canva", pattern: /^canva\b/i },
  { name: "ExifTool", pattern: /exiftool/i },
  { name: "Exiv2", pattern: /\bexiv2\b/i },
  { name: "an EXIF editor", pattern: /exif ?editor|exif ?eraser|photo exif editor/i },
  { name: "a geotagging tool", pattern: /fake ?gps|gps ?faker|geotag(?:ger)?/i },
];

/** The table's entry naming this metadata value, or null (first match wins: the table's order matters). */
export function matchEditSoftware(value: string): EditSoftware | null {
  const s = value.trim();
  if (s === "") return null;
  return EDIT_SOFTWARE.find((entry) => entry.pattern.test(s)) ?? null;
}
