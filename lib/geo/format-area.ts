// Human-readable areas: m² below a hectare, hectares below a square kilometre, then km².
const number = (digits: number) => new Intl.NumberFormat("en-GB", { maximumFractionDigits: digits });

export function formatArea(m2: number): string {
  if (!Number.isFinite(m2) || m2 < 0) return "—";
  if (m2 < 10_000) return `${number(0).format(m2)} m²`;
  if (m2 < 1_000_000) return `${number(2).format(m2 / 10_000)} ha`;
  return `${number(2).format(m2 / 1_000_000)} km²`;
}
