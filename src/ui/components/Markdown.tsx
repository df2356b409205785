// Assistant text rendered as a terminal reader expects markdown: headings bold, lists with
// bullets, quotes dimmed, `inline code` and **bold** marked, fenced code blocks set apart and
// lightly highlighted (keywords, strings, comments, numbers). Small on purpose: what the model
// writes is mostly these few forms, and a full markdown engine would cost start-up for nothing.
import { Box, Text } from "ink";
import { memo, type ReactNode } from "react";

/** Memoised: the streaming text is parsed again only when it has grown, not at every keystroke's redraw. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <Box flexDirection="column">{renderBlocks(text)}</Box>;
});

interface Block {
  kind: "code" | "line";
  lang?: string;
  lines: string[];
}

function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let code: Block | undefined;
  for (const line of text.split("\n")) {
    const fence = /^\s*```\s*([\w+-]*)/.exec(line);
    if (fence) {
      if (code) {
        blocks.push(code);
        code = undefined;
      } else code = { kind: "code", lang: fence[1] || undefined, lines: [] };
      continue;
    }
    if (code) code.lines.push(line);
    else blocks.push({ kind: "line", lines: [line] });
  }
  // A block still open while the text streams in is shown as code so far.
  if (code) blocks.push(code);
  return blocks;
}

function renderBlocks(text: string): ReactNode[] {
  return splitBlocks(text).map((block, index) => {
    if (block.kind === "code") {
      return (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
        <Box key={index} flexDirection="column" paddingLeft={2}>
          {block.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
            <Text key={i}>{highlightCode(line)}</Text>
          ))}
        </Box>
      );
    }
    const line = block.lines[0] ?? "";
    // An empty Text has no height: a blank line between paragraphs needs a character.
    // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
    return <Text key={index}>{line.trim() === "" ? " " : renderLine(line)}</Text>;
  });
}

function renderLine(line: string): ReactNode {
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading) return <Text bold>{renderInline(heading[2] ?? "")}</Text>;
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) {
    return (
      <>
        {bullet[1]}• {renderInline(bullet[2] ?? "")}
      </>
    );
  }
  const quote = /^>\s?(.*)$/.exec(line);
  if (quote) return <Text dimColor>│ {renderInline(quote[1] ?? "")}</Text>;
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return <Text dimColor>{"─".repeat(20)}</Text>;
  return renderInline(line);
}

/** `code`, **bold**, *italic* / _italic_, anything else as it is. */
export function renderInline(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])|(?<!\w)_([^_\s][^_]*)_(?!\w)/g;
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    if (match[1] !== undefined)
      parts.push(
        <Text key={key++} color="cyan">
          {match[1]}
        </Text>,
      );
    else if (match[2] !== undefined)
      parts.push(
        <Text key={key++} bold>
          {match[2]}
        </Text>,
      );
    else
      parts.push(
        <Text key={key++} italic>
          {match[3] ?? match[4]}
        </Text>,
      );
    last = at + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

const KEYWORDS = new Set(
  (
    "const let var function return if else for while do switch case break continue new class extends import " +
    "export from default async await try catch finally throw typeof instanceof in of interface type enum " +
    "def elif lambda pass yield with as fn pub struct impl mut use match loop package func go defer " +
    "true false null undefined None True False nil self this"
  ).split(" "),
);

/** One line of code with keywords, strings, comments and numbers coloured. */
export function highlightCode(line: string): ReactNode[] {
  const parts: ReactNode[] = [];
  const token =
    /(\/\/.*$|#.*$)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)|(\b\d[\d_.]*\b)|([A-Za-z_$][\w$]*)/g;
  let last = 0;
  let key = 0;
  for (const match of line.matchAll(token)) {
    const at = match.index ?? 0;
    const [whole, comment, string, number, word] = match;
    let color: string | undefined;
    if (comment !== undefined) color = "gray";
    else if (string !== undefined) color = "green";
    else if (number !== undefined) color = "yellow";
    else if (word !== undefined && KEYWORDS.has(word)) color = "magenta";
    if (!color) continue;
    if (at > last) parts.push(line.slice(last, at));
    parts.push(
      <Text key={key++} color={color}>
        {whole}
      </Text>,
    );
    last = at + whole.length;
  }
  if (last < line.length) parts.push(line.slice(last));
  if (parts.length === 0) parts.push(" ");
  return parts;
}
