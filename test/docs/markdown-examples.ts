// Finds the shell examples in the docs that run Warden, with the notes that say how to run them.
// An example is a ```sh block with a line that runs `warden` (or ./bin/warden.js). The comment
// line right above a block may say how it runs:
//   <!-- example: server -->  a command that serves until stopped: it must start and stay up
//   <!-- example: exit N -->  the command is expected to end with code N (default 0)
// A ```text block right after an example shows (part of) its output: each of its lines must
// appear in what the command printed.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface DocExample {
  file: string;
  line: number;
  script: string;
  kind: "run" | "server";
  exitCode: number;
  shownOutput?: string;
}

export function markdownFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(root, "docs", name));
  return [join(root, "README.md"), ...docs].sort();
}

interface Fence {
  lang: string;
  body: string;
  line: number;
  endLine: number;
  note?: string;
}

function fences(text: string): Fence[] {
  const lines = text.split("\n");
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const end = lines.findIndex((candidate, index) => index > i && /^```\s*$/.test(candidate));
    if (end < 0) break;
    let previous = i - 1;
    while (previous >= 0 && lines[previous]?.trim() === "") previous--;
    const note = /^<!--\s*example:\s*(.+?)\s*-->$/.exec(lines[previous]?.trim() ?? "")?.[1];
    found.push({ lang: open[1] ?? "", body: lines.slice(i + 1, end).join("\n"), line: i + 1, endLine: end + 1, note });
    i = end;
  }
  return found;
}

// `warden` (or the launcher) as a command: at a line's start, after `$ `, environment assignments,
// a pipe or `&&`.
const RUNS_WARDEN = /(^|[|;&]\s*)(\$ )?([A-Z_]+=\S*\s+)*(warden|\.\/bin\/warden\.js|node bin\/warden\.js)(\s|$)/m;

export function docExamples(root: string): DocExample[] {
  const examples: DocExample[] = [];
  for (const file of markdownFiles(root)) {
    const blocks = fences(readFileSync(file, "utf8"));
    blocks.forEach((block, index) => {
      if (block.lang !== "sh" || !RUNS_WARDEN.test(block.body.replace(/^\.\/scripts\/setup\.sh && /m, ""))) return;
      const next = blocks[index + 1];
      const shown = next && next.lang === "text" && next.line <= block.endLine + 3 ? next.body : undefined;
      const exit = /^exit (\d+)$/.exec(block.note ?? "");
      examples.push({
        file: relative(root, file),
        line: block.line,
        // CI runs the set-up itself; the example is what comes after it.
        script: block.body.replace(/^\.\/scripts\/setup\.sh && /m, "").replace(/^\$ /gm, ""),
        kind: block.note === "server" ? "server" : "run",
        exitCode: exit ? Number(exit[1]) : 0,
        shownOutput: shown,
      });
    });
  }
  return examples;
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");
}

function anchorsOf(text: string): Set<string> {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return new Set(
    prose
      .split("\n")
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => headingAnchor(line.replace(/^#+\s*/, ""))),
  );
}

/**
 * Relative links ([text](path), [text](path#anchor), [text](#anchor)) that name no file of the
 * repository, or a heading the named Markdown file does not have.
 */
export function brokenRelativeLinks(root: string, exists: (path: string) => boolean): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles(root)) {
    const source = readFileSync(file, "utf8");
    const text = source.replace(/```[\s\S]*?```/g, "");
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? "";
      if (/^[a-z]+:/i.test(target)) continue;
      const [path = "", anchor] = target.split("#");
      const resolved = path ? join(file, "..", decodeURIComponent(path)) : file;
      if (!exists(resolved)) {
        broken.push(`${relative(root, file)}: ${target}`);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) {
        broken.push(`${relative(root, file)}: ${target} (no such heading)`);
      }
    }
  }
  return broken;
}
