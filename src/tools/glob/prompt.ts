export const GLOB_TOOL_NAME = "Glob";

export const GLOB_DESCRIPTION = "Find files by name pattern (glob), newest first.";

export function globPrompt(): string {
  return `Fast file-name pattern matching for a codebase of any size.

Usage:
- Give a glob pattern such as "**/*.js" or "src/**/*.ts". "*" matches within one folder; "**" crosses folders.
- Paths come back newest first. Files ignored by .gitignore and version-control folders are left out.
- path: the folder to search (default: the working directory).
- Use Glob to find files by name instead of find or ls in a shell. To search file contents use Grep.
- At most 100 files are returned; when the list is cut, narrow the pattern or the path.
- Run several searches in one turn, in parallel, when looking for different things.`;
}
