// The textual form of a permission rule: `Tool`, `Tool(content)`, `Tool(prefix:*)`, `mcp__server`,
// `mcp__server__tool`. Parsing is strict on purpose: a rule that does not read cleanly is reported
// and skipped, because guessing what a broken deny rule meant could silently widen what it allows.
import type { PermissionRuleValue } from "../../tool/permission-types.js";

export type RuleParseResult = { ok: true; value: PermissionRuleValue } | { ok: false; error: string };

/** Tool names as tools and MCP servers spell them; `mcp__server__*` names every tool of a server. */
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*(__\*)?$/;

export function parseRule(text: string): RuleParseResult {
  const rule = text.trim();
  if (rule === "") return { ok: false, error: "empty rule" };
  const open = rule.indexOf("(");
  if (open === -1) {
    if (rule.includes(")")) return { ok: false, error: `"${rule}" has ")" without "("` };
    if (!TOOL_NAME.test(rule)) return { ok: false, error: `"${rule}" is not a tool name` };
    return { ok: true, value: { toolName: rule } };
  }
  const toolName = rule.slice(0, open).trim();
  if (!TOOL_NAME.test(toolName)) return { ok: false, error: `"${toolName}" is not a tool name` };
  if (!rule.endsWith(")")) return { ok: false, error: `"${rule}" must end with ")"` };
  const content = unescapeContent(rule.slice(open + 1, -1)).trim();
  if (content === "") return { ok: false, error: `"${rule}" has empty parentheses` };
  // `Tool(*)` says "any input" in so many words: the same as the bare tool name.
  if (content === "*") return { ok: true, value: { toolName } };
  return { ok: true, value: { toolName, ruleContent: content } };
}

export function formatRule(value: PermissionRuleValue): string {
  if (value.ruleContent === undefined) return value.toolName;
  return `${value.toolName}(${escapeContent(value.ruleContent)})`;
}

/** One spelling per meaning, so that rules written differently but meaning the same deduplicate. */
export function normalizeRule(text: string): string | undefined {
  const parsed = parseRule(text);
  return parsed.ok ? formatRule(parsed.value) : undefined;
}

function unescapeContent(raw: string): string {
  return raw.replace(/\\([()\\])/g, "$1");
}

/**
 * A backslash before `*` is left as it is: `\*` (a Bash rule's literal star) reads the same either
 * way, since unescapeContent leaves `\*` alone, and the rule shows as the person would write it.
 */
function escapeContent(content: string): string {
  return content.replace(/[()]|\\(?!\*)/g, (c) => `\\${c}`);
}

/**
 * Splits a CLI list such as `--allowedTools "Bash(git commit:*),Read Edit"`: commas and spaces
 * separate rules, except inside parentheses, where they belong to the rule's content.
 */
export function splitRuleList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c === "\\" && i + 1 < list.length) {
      current += c + list[i + 1];
      i++;
      continue;
    }
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || c === " " || c === "\t" || c === "\n")) {
      if (current.trim() !== "") out.push(current.trim());
      current = "";
      continue;
    }
    current += c;
  }
  if (current.trim() !== "") out.push(current.trim());
  return out;
}
