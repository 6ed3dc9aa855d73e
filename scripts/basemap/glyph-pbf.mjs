// Encodes glyphs as MapLibre glyph PBFs (the glyphs.proto of mapbox/glyph-pbf-composite):
//   glyphs { repeated fontstack stacks = 1 }
//   fontstack { string name = 1; string range = 2; repeated glyph glyphs = 3 }
//   glyph { uint32 id = 1; bytes bitmap = 2; uint32 width = 3; uint32 height = 4;
//           sint32 left = 5; sint32 top = 6; uint32 advance = 7 }
import { PbfWriter } from "pbf";

function writeGlyph(glyph, pbf) {
  pbf.writeVarintField(1, glyph.id);
  // Blank glyphs (space) carry no bitmap, as in server-generated fonts.
  if (glyph.bitmap) pbf.writeBytesField(2, glyph.bitmap);
  pbf.writeVarintField(3, glyph.width);
  pbf.writeVarintField(4, glyph.height);
  pbf.writeSVarintField(5, glyph.left);
  pbf.writeSVarintField(6, glyph.top);
  pbf.writeVarintField(7, glyph.advance);
}

function writeFontstack(stack, pbf) {
  pbf.writeStringField(1, stack.name);
  pbf.writeStringField(2, stack.range);
  for (const glyph of stack.glyphs) pbf.writeMessage(3, writeGlyph, glyph);
}

/** One range file: `name` is the fontstack, `range` like "0-255", glyphs sorted by id. */
export function encodeGlyphRange(name, range, glyphs) {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, writeFontstack, { name, range, glyphs });
  return pbf.finish();
}
