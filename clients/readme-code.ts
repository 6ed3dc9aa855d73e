// The clients' quick starts live in their READMEs; the tests run the README's code block itself
// (between `<!-- quick-start:begin -->` and `<!-- quick-start:end -->`), so the docs cannot rot.
import { readFileSync } from "node:fs";

export function quickStartCode(readmePath: string, language: "js" | "python"): string {
  const readme = readFileSync(readmePath, "utf8");
  const match = new RegExp(`<!-- quick-start:begin -->\\s*\`\`\`${language}\\n([\\s\\S]*?)\`\`\`\\s*<!-- quick-start:end -->`).exec(readme);
  if (!match?.[1]) throw new Error(`${readmePath} has no ${language} quick-start block.`);
  return match[1];
}
