// Turns an API error pointer into words a person can act on: "/bounds/coordinates/0/5" is
// "Vertex 6: ", the outer ring's sixth position (the way the map numbers them).
export function describePointer(pointer: string): string {
  const vertex = /^\/bounds\/coordinates\/(\d+)\/(\d+)/.exec(pointer);
  if (vertex) {
    const ring = Number(vertex[1]);
    const index = Number(vertex[2]) + 1;
    return ring === 0 ? `Vertex ${index}: ` : `Hole ${ring}, vertex ${index}: `;
  }
  const ring = /^\/bounds\/coordinates\/(\d+)$/.exec(pointer);
  if (ring) return Number(ring[1]) === 0 ? "Outline: " : `Hole ${ring[1]}: `;
  return "";
}
