// A hook's `if`: a condition in permission-rule syntax (`Bash(git commit:*)`, `Edit(src/**)`) that
// decides whether the hook runs for this tool call (the hook runner is given this check by the
// session's setup, as hooks sit below permissions), read the way the permission rules are: Bash on
// the simple commands the text holds (`ls && git push`, `FOO=1 git push`, `$(git push)` all run
// `git push`), file tools on the call's absolute path. Only tool events have a call to test; on
// other events a hook with `if` never runs. Where the condition cannot be read, or its content is
// of a kind not understood here (WebFetch's `domain:`), the hook runs: a guard that runs once too
// often costs a process, one that stays quiet costs its check.
import { isAbsolute, resolve } from "node:path";
import { fallbackSimpleCommands } from "../../shell/parse/fallback-lexer.js";
import type { Field } from "../../shell/words/index.js";
import type { PermissionRule } from "../../tool/permission-types.js";
import { ruleMatchesFlags } from "../bash/flag-spellings.js";
import { bashRuleFromContent, denyVariants, ruleMatchesWords } from "../bash/rules.js";
import { findMatchingPathRule } from "./path-rules.js";
import { parseRule } from "./rule-string.js";

const FILE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: ["file_path"],
  Edit: ["file_path"],
  MultiEdit: ["file_path"],
  Write: ["file_path"],
  NotebookEdit: ["notebook_path"],
  Glob: ["path"],
  Grep: ["path"],
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Whether a hook with this `if` runs for this tool call (see the header). */
export function hookConditionHolds(
  condition: string,
  call: { toolName: string; toolInput: Record<string, unknown> },
  cwd: string,
): boolean {
  const parsed = parseRule(condition);
  if (!parsed.ok) return true;
  const { toolName: ruleTool, ruleContent } = parsed.value;
  if (!namesTool(ruleTool, call.toolName)) return false;
  if (ruleContent === undefined) return true;
  if (call.toolName === "Bash") return bashConditionHolds(ruleContent, call.toolInput.command);
  const fields = FILE_TOOLS[call.toolName];
  if (fields) {
    const raw = fields.map((f) => call.toolInput[f]).find((v): v is string => typeof v === "string");
    const path = raw === undefined ? cwd : isAbsolute(raw) ? raw : resolve(cwd, raw);
    const rule: PermissionRule = { source: "session", behavior: "ask", value: parsed.value };
    return findMatchingPathRule([rule], [call.toolName], [path], cwd) !== undefined;
  }
  return true;
}

function namesTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  // `mcp__server` and `mcp__server__*` name every tool of that server.
  const server = ruleTool.endsWith("__*") ? ruleTool.slice(0, -3) : ruleTool;
  return server.startsWith("mcp__") && server.split("__").length === 2 && toolName.startsWith(`${server}__`);
}

function bashConditionHolds(content: string, command: unknown): boolean {
  if (typeof command !== "string") return false;
  const shape = bashRuleFromContent(content);
  if (!shape) return true;
  const rule = {
    ...shape,
    rule: { source: "session", behavior: "ask", value: { toolName: "Bash" } },
    behavior: "ask",
  } as const;
  for (const words of fallbackSimpleCommands(command)) {
    const argv: Field[] = dropAssignments(words);
    for (const variant of denyVariants(argv)) {
      if (ruleMatchesWords(rule, variant) || ruleMatchesFlags(rule, variant)) return true;
    }
  }
  return false;
}

/** `FOO=bar git push` runs `git push`. */
function dropAssignments(words: Field[]): Field[] {
  let i = 0;
  while (i < words.length - 1 && ASSIGNMENT.test((words[i] as Field).value)) i += 1;
  return words.slice(i);
}
