// The little Markdown the OpenAPI descriptions use — paragraphs, `code` spans and pipe tables — as
// blocks a server component renders. Anything else stays the text it is. Pure, tests beside it.

export type Inline = { code: boolean; text: string };
export type Block = { kind: "paragraph"; inlines: Inline[] } | { kind: "table"; head: Inline[][]; rows: Inline[][][] };

/** "Emits `mission.created`." → text, code, text. */
export function inlines(text: string): Inline[] {
  return text
    .split(/(`[^`]+`)/)
    .filter((part) => part !== "")
    .map((part) => (part.length > 2 && part.startsWith("`") && part.endsWith("`") ? { code: true, text: part.slice(1, -1) } : { code: false, text: part }));
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => inlines(cell.trim()));

const isDivider = (line: string) => /^\|?(\s*:?-{3,}:?\s*\|)+\s*:?-{0,}:?\s*\|?$/.test(line.trim());

export function parseProse(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let table: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", inlines: inlines(paragraph.join(" ")) });
    paragraph = [];
  };
  const flushTable = () => {
    if (table.length > 0) {
      const [head = "", ...rest] = table;
      blocks.push({ kind: "table", head: cells(head), rows: rest.filter((line) => !isDivider(line)).map(cells) });
    }
    table = [];
  };
  for (const line of text.split("\n")) {
    if (line.trim().startsWith("|")) {
      flushParagraph();
      table.push(line);
    } else if (line.trim() === "") {
      flushTable();
      flushParagraph();
    } else {
      flushTable();
      paragraph.push(line.trim());
    }
  }
  flushTable();
  flushParagraph();
  return blocks;
}
