export const GREP_TOOL_NAME = "Grep";

export const GREP_DESCRIPTION = "Search file contents with regular expressions (ripgrep).";

export function grepPrompt(): string {
  return `A powerful search tool built on ripgrep.

Usage:
- Always use Grep to search file contents. Never run grep or rg through Bash: this tool is faster, respects .gitignore, and its output is sized for you.
- Full regular-expression syntax (e.g. "log.*Error", "function\\s+\\w+"). The syntax is ripgrep's, not grep's: escape literal braces, e.g. "interface\\{\\}" to find interface{} in Go.
- Filter files with glob (e.g. "*.js", "**/*.{ts,tsx}") or type (e.g. "js", "py", "rust"); type is faster for standard file types.
- output_mode: "files_with_matches" (default) lists matching files, newest first; "content" shows matching lines (with -n line numbers, -A/-B/-C context); "count" shows the number of matches per file.
- Patterns match within single lines by default. For patterns that span lines (e.g. "struct \\{[\\s\\S]*?field"), set multiline: true.
- Results are limited by head_limit (default 250; 0 for no limit); use offset to page through more.
- path is an absolute file or folder to search; it defaults to the current working directory.
- For open-ended searches that need several rounds, search with Grep and Glob step by step, reading what you find.`;
}
