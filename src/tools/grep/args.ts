// Turns Grep's input into ripgrep arguments, as the reference describes the call: hidden files
// included, version-control folders excluded, long lines cut at 500 columns (minified code and
// base64 would otherwise flood the result), -U --multiline-dotall for multiline patterns, and -e
// for a pattern that starts with "-" so rg does not read it as a flag.
import { VCS_DIRECTORY_GLOB } from "../file-shared/ripgrep.js";

export type GrepOutputMode = "content" | "files_with_matches" | "count";

export interface GrepArgsInput {
  pattern: string;
  searchPath: string;
  outputMode: GrepOutputMode;
  glob?: string;
  type?: string;
  caseInsensitive?: boolean;
  lineNumbers?: boolean;
  before?: number;
  after?: number;
  context?: number;
  multiline?: boolean;
}

export const MAX_COLUMNS = 500;

/** "*.ts *.tsx" and "*.ts,*.tsx" are several globs; commas inside braces belong to one glob. */
export function splitGlobs(glob: string): string[] {
  const out: string[] = [];
  for (const part of glob.split(/\s+/)) {
    if (part === "") continue;
    if (part.includes("{")) out.push(part);
    else out.push(...part.split(",").filter((p) => p !== ""));
  }
  return out;
}

export function buildRipgrepArgs(input: GrepArgsInput): string[] {
  const args = [
    "--hidden",
    "--glob",
    VCS_DIRECTORY_GLOB,
    "--max-columns",
    String(MAX_COLUMNS),
    "--color",
    "never",
    "--no-heading",
    "-H",
  ];
  // --null ends every printed path with a NUL byte, so "path:12:text" lines parse unambiguously
  // when the path itself holds ":" or "-". A file list needs no parsing (one path per line), and
  // `rg -l --null` measured twice as slow as `rg -l` on a 50,000-file tree, so it is left out there.
  if (input.outputMode !== "files_with_matches") args.push("--null");
  if (input.multiline) args.push("-U", "--multiline-dotall");
  if (input.caseInsensitive) args.push("-i");
  if (input.outputMode === "files_with_matches") args.push("-l");
  else if (input.outputMode === "count") args.push("-c");
  else {
    if (input.lineNumbers !== false) args.push("-n");
    if (input.context !== undefined) args.push("-C", String(input.context));
    else {
      if (input.before !== undefined) args.push("-B", String(input.before));
      if (input.after !== undefined) args.push("-A", String(input.after));
    }
  }
  if (input.glob) for (const g of splitGlobs(input.glob)) args.push("--glob", g);
  if (input.type) args.push("--type", input.type);
  if (input.pattern.startsWith("-")) args.push("-e", input.pattern);
  else args.push(input.pattern);
  args.push("--", input.searchPath);
  return args;
}
