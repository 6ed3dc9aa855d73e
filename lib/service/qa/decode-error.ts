// What a partner is told when a photo cannot be decoded: the decoder's reason, never a server path
// (sharp names the file it was given, e.g. "Input file is missing: /srv/data/photos/…/original.jpg").

/** The decoder's reason in one short line, with file paths and "prefix:" noise removed. */
export function describeDecodeError(error: unknown): string {
  const message = error instanceof Error ? error.message : "unknown error";
  const firstLine = message.split("\n")[0] ?? "";
  const withoutPaths = firstLine
    .replace(/(?:[A-Za-z]:)?(?:[\\/][^\s\\/:()"']+)+[\\/]?/g, "")
    .replace(/\s*:\s*(?=$|[,;)])/g, "")
    .replace(/\(\s*\)/g, "")
    .replace(/\s{2,}/g, " ")
    .trim();
  const reason = withoutPaths.replace(/^.*?: /, "").trim();
  return (reason || "unknown error").slice(0, 200);
}
