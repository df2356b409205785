// `@path` imports in memory files, as Claude Code reads them: a CLAUDE.md may pull in another file by
// writing `@docs/style.md` (relative to the importing file), `@~/notes.md` (the user's home) or
// `@/abs/path.md`. The imported file joins the memory as its own entry right after the file that
// named it, so a deny rule on Read can keep it out by its own path (context/memory-access.ts). Text
// inside code spans and fenced blocks is example text, not an import. Depth is bounded and a file
// already included is not read again, so cycles end.
import { isAbsolute, join, resolve } from "node:path";
import { userHome } from "./paths.js";

/** How many imports deep a chain may go from the file the user wrote (Claude Code's bound). */
export const MAX_IMPORT_DEPTH = 5;

/** The import paths a memory file names, in order, resolved against the folder that holds it. */
export function importedPaths(content: string, fileDir: string): string[] {
  const paths: string[] = [];
  for (const token of importTokens(withoutCode(content))) {
    const path = resolveImport(token, fileDir);
    if (path !== undefined && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

// `@` at the start of a line or after white space, then a path (a backslash escapes a space).
const IMPORT = /(^|\s)@((?:[^\s\\]|\\ )+)/g;

function importTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    // Trailing punctuation ends a sentence, not a path ("see @docs/a.md.").
    const token = (match[2] ?? "").replace(/\\ /g, " ").replace(/[.,;:!?)\]]+$/, "");
    if (token !== "") tokens.push(token);
  }
  return tokens;
}

function resolveImport(token: string, fileDir: string): string | undefined {
  // `@user` in prose (an e-mail, a mention) has no path shape; an import names a file.
  if (token.startsWith("~/")) return join(userHome(), token.slice(2));
  if (isAbsolute(token)) return resolve(token);
  if (token.startsWith("./") || token.startsWith("../")) return resolve(fileDir, token);
  if (/^[A-Za-z0-9_.-][^@]*$/.test(token) && (token.includes("/") || token.includes("."))) {
    return resolve(fileDir, token);
  }
  return undefined;
}

/**
 * The text with fenced code blocks and inline code spans blanked out, so an `@name` shown as an
 * example is not read as an import. Lengths are kept (replaced by spaces) for simple reasoning.
 */
export function withoutCode(content: string): string {
  const lines = content.split("\n");
  let fence: string | undefined;
  const kept = lines.map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (opener && opener[1]?.[0] === fence[0] && (opener[1]?.length ?? 0) >= fence.length) fence = undefined;
      return "";
    }
    if (opener) {
      fence = opener[1];
      return "";
    }
    return line;
  });
  return blankCodeSpans(kept.join("\n"));
}

/** Inline code: a run of N backticks up to the next run of exactly N backticks. */
function blankCodeSpans(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "`") {
      out += text[i];
      i += 1;
      continue;
    }
    let run = 0;
    while (text[i + run] === "`") run += 1;
    const ticks = "`".repeat(run);
    let close = text.indexOf(ticks, i + run);
    while (close !== -1 && text[close + run] === "`") {
      let skip = close;
      while (text[skip] === "`") skip += 1;
      close = text.indexOf(ticks, skip);
    }
    if (close === -1) {
      // An unmatched run is literal backticks.
      out += ticks;
      i += run;
      continue;
    }
    out += " ".repeat(close + run - i);
    i = close + run;
  }
  return out;
}
