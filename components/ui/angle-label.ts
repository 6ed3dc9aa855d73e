// An angle's (or any snake_case name's) English words, for names the catalogue does not know yet.
/** "parking_lot" → "Parking lot". */
export function angleLabel(angle: string): string {
  const words = angle.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
