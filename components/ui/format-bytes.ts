/** 512 B, 12.3 KB, 4.1 MB, with the reader's digits ("en-GB" when not said). */
export function formatBytes(n: number, locale = "en-GB"): string {
  const bytes = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  if (n < 1024) return `${bytes.format(n)} B`;
  if (n < 1024 * 1024) return `${bytes.format(n / 1024)} KB`;
  return `${bytes.format(n / (1024 * 1024))} MB`;
}
