// The one way a configuration file a person writes is read as JSON: settings, `.mcp.json` (the
// project's, a plugin's, `--mcp-config FILE`, `~/.claude.json`), plugin.json, marketplace.json,
// hooks.json and `.lsp.json`. Editors on Windows start UTF-8 files with a byte-order mark, which
// JSON.parse rejects; a settings file with one loaded while an `.mcp.json` with one was "invalid
// JSON". Workspace trust and the loaders read `.mcp.json` through this same function, so what the
// gate judges is what the loader starts.

/** The text without a leading byte-order mark. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** JSON.parse of a configuration file's text (a leading byte-order mark skipped); throws as JSON.parse does. */
export function parseConfigJson(text: string): unknown {
  return JSON.parse(withoutByteOrderMark(text));
}
