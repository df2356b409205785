// Which rule names govern a file access. Path rules are written against a kind of access, not one
// tool: `Read(./secrets/**)` must stop Grep and Glob there too, `Edit(./src/**)` must cover Write.
// The family of a kind is asked of the tools themselves (their fileAccess trait), so a new or
// renamed file tool joins it by declaring its kind, never by being added to a list here.
import type { AnyTool, FileAccessKind } from "../../tool/types.js";

/**
 * The rule language's own word for each kind, part of the family whatever tools the session has:
 * a session started without Read (`--disallowedTools Read`) must still honour `Read(./.env)` in
 * deny rules for every other tool that reads. Suggested rules use these words too.
 */
export const READ_RULE_NAME = "Read";
export const WRITE_RULE_NAME = "Edit";

const KIND_WORD: Record<FileAccessKind, string> = { read: READ_RULE_NAME, write: WRITE_RULE_NAME };

/**
 * Per pool, per kind, per asking tool: the names, computed once (every file-tool call asks). A pool
 * is never changed in place: a session that gains or loses tools assembles a new array.
 */
const families = new WeakMap<readonly AnyTool[], Map<string, readonly string[]>>();

function familyOf(kind: FileAccessKind, pool: readonly AnyTool[]): string[] {
  const names = [KIND_WORD[kind]];
  for (const tool of pool) {
    if (tool.fileAccess !== kind) continue;
    // Former names still name the tool in rules written before a rename.
    for (const name of [tool.name, ...(tool.aliases ?? [])]) if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The tool names whose path rules govern `toolName`'s access of this kind: the tool itself, the
 * kind's word, and every tool of the pool with this kind.
 */
export function ruleNamesFor(kind: FileAccessKind, toolName: string, pool: readonly AnyTool[]): readonly string[] {
  let byKey = families.get(pool);
  if (!byKey) {
    byKey = new Map();
    families.set(pool, byKey);
  }
  const key = `${kind}\0${toolName}`;
  let names = byKey.get(key);
  if (!names) {
    const family = familyOf(kind, pool);
    names = family.includes(toolName) ? family : [toolName, ...family];
    byKey.set(key, names);
  }
  return names;
}
