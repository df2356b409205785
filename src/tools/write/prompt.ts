export const WRITE_TOOL_NAME = "Write";

export const WRITE_DESCRIPTION = "Write a whole file to the local filesystem (create it, or replace all of it).";

export function writePrompt(): string {
  return `Writes a file to the local filesystem, replacing it entirely if it exists.

Usage:
- Use Write only to create a new file or to rewrite a file completely. To change part of a file use Edit: it cannot drop the rest by accident.
- An existing file must have been Read in this conversation and be unchanged since, or the write is refused.
- Missing parent folders are created.
- The file keeps its encoding (UTF-8, or UTF-16 with a byte-order mark). Line endings are written as LF.
- Never create documentation files (*.md, README) unless the user asks for them.
- Every change is recorded and can be undone with \`warden undo\`.`;
}
