// Path checks that file tools call from their own checkPermissions (every tool with a fileAccess
// trait); the Bash check (bash/) uses the same working-directory boundary for the paths a command
// reads. Every check looks at the path as spelled and at where it really leads (symlinks, `..`),
// and both must pass: a link inside the project pointing outside is outside.
import { dirname, join, relative, resolve, sep } from "node:path";
import { wardenHome } from "../../config/paths.js";
import { pathsToCheck, realDirectory } from "../../fs/real-path.js";
import { isPathWithin, resolvedPath } from "../../fs/resolved-path.js";
import type {
  PermissionResult,
  PermissionRule,
  PermissionUpdate,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import type { AnyTool } from "../../tool/types.js";
import { describeRule, findMatchingPathRule } from "../rules/index.js";
import { isPlanFile, PLAN_FILE_REASON } from "./plan-file.js";
import { READ_RULE_NAME, ruleNamesFor, WRITE_RULE_NAME } from "./rule-family.js";
import { isUncPath, protectedPathReason } from "./safety.js";

/** Opening `//host/share/x` makes the system authenticate to that host, whatever the rules say. */
const UNC_REASON = "UNC network path: opening it can leak credentials to another machine";

const isWithin = isPathWithin;

function insideAny(target: string, context: ToolPermissionContext): boolean {
  return context.workingDirectories.some((dir) => {
    const spelled = resolvedPath(dir);
    return isWithin(spelled, target) || isWithin(realDirectory(spelled), target);
  });
}

/** Both the path as spelled and its real location lie inside a working directory. */
export function isInsideWorkingDirectories(absolutePath: string, context: ToolPermissionContext): boolean {
  return pathsToCheck(absolutePath).every((p) => insideAny(p, context));
}

function absolute(path: string, context: ToolPermissionContext): string {
  return resolvedPath(path, context.workingDirectories[0] ?? process.cwd());
}

function matchRule(
  rules: readonly PermissionRule[],
  tools: readonly string[],
  paths: readonly string[],
  context: ToolPermissionContext,
): PermissionRule | undefined {
  return findMatchingPathRule(rules, tools, paths, context.workingDirectories[0] ?? "/");
}

function outsideSuggestions(absolutePath: string): PermissionUpdate[] {
  return addFoldersSuggestion([dirname(absolutePath)]);
}

/**
 * The offer to add these folders to the session's working directories, which clears a question
 * about a place outside them. Never the filesystem's root: a place at the top (`/x`) would have the
 * person let every path in with one answer; such a place is allowed once, or by a rule.
 */
export function addFoldersSuggestion(folders: Iterable<string>): PermissionUpdate[] {
  const offered = [...new Set(folders)].filter((folder) => dirname(folder) !== folder);
  return offered.length > 0 ? [{ type: "addDirectories", directories: offered, destination: "session" }] : [];
}

/** Reading a file the session itself saved (a large tool result shown to the model as a preview). */
function isSavedToolResult(path: string): boolean {
  const projects = join(wardenHome(), "projects");
  return isWithin(projects, path) && relative(projects, path).split(sep).includes("tool-results");
}

/**
 * May `toolName` read this path? `pool` is the session's tools: rules named after any of its
 * "read" tools apply (`Read(./secrets/**)` also stops Grep there), and allow rules of its "write"
 * tools too (permission to edit a place includes reading it).
 */
export function checkReadPermission(
  toolName: string,
  absolutePath: string,
  context: ToolPermissionContext,
  pool: readonly AnyTool[],
): PermissionResult {
  if (isUncPath(absolutePath)) {
    return safetyAsk(toolName, absolutePath, UNC_REASON);
  }
  const path = absolute(absolutePath, context);
  const paths = pathsToCheck(path);
  const tools = ruleNamesFor("read", toolName, pool);

  const deny = matchRule(context.rules.deny, tools, paths, context);
  if (deny) return ruleDeny("read", path, deny);
  const ask = matchRule(context.rules.ask, tools, paths, context);
  if (ask) return ruleAsk(toolName, "read", path, ask);
  // Permission to edit a place includes permission to read it.
  const allow =
    matchRule(context.rules.allow, tools, paths, context) ??
    matchRule(context.rules.allow, ruleNamesFor("write", toolName, pool), paths, context);
  if (allow) return { behavior: "allow", decisionReason: { type: "rule", rule: allow } };
  if (paths.every((p) => insideAny(p, context))) {
    return { behavior: "allow", decisionReason: { type: "other", reason: "reading inside the working directories" } };
  }
  if (isPlanFile(path, context)) {
    return { behavior: "allow", decisionReason: { type: "other", reason: "reading this session's plan file" } };
  }
  if (paths.every(isSavedToolResult)) {
    return { behavior: "allow", decisionReason: { type: "other", reason: "reading this session's saved tool output" } };
  }
  return {
    behavior: "passthrough",
    message: `${toolName} wants to read ${path}, which is outside the working directories${
      paths.length > 1 ? ` (it leads to ${paths[1]})` : ""
    }.`,
    decisionReason: { type: "other", reason: "outside the working directories" },
    suggestions: [
      {
        type: "addRules",
        behavior: "allow",
        rules: [{ toolName: READ_RULE_NAME, ruleContent: `/${dirname(path)}/**` }],
        destination: "session",
      },
      ...outsideSuggestions(path),
    ],
  };
}

/** May `toolName` write this path? Rules named after any "write" tool of `pool` apply (`Edit(...)` covers Write too). */
export function checkWritePermission(
  toolName: string,
  absolutePath: string,
  context: ToolPermissionContext,
  pool: readonly AnyTool[],
): PermissionResult {
  if (isUncPath(absolutePath)) {
    return safetyAsk(toolName, absolutePath, UNC_REASON);
  }
  const path = absolute(absolutePath, context);
  const paths = pathsToCheck(path);
  const tools = ruleNamesFor("write", toolName, pool);

  const deny = matchRule(context.rules.deny, tools, paths, context);
  if (deny) return ruleDeny("write", path, deny);
  // The session's own plan file, in its folder under ~/.warden (so outside the working directories
  // and inside a protected .warden/ folder): the one file plan mode lets the model write.
  if (isPlanFile(path, context)) return { behavior: "allow", decisionReason: PLAN_FILE_REASON };

  for (const p of paths) {
    const reason = protectedPathReason(p);
    if (reason) return safetyAsk(toolName, path, reason);
  }
  const outside = paths.find((p) => !insideAny(p, context));
  if (outside !== undefined) {
    const via = outside !== path ? ` (through a link it leads to ${outside})` : "";
    return safetyAsk(toolName, path, `${path} is outside the working directories${via}`, outsideSuggestions(outside));
  }

  const ask = matchRule(context.rules.ask, tools, paths, context);
  if (ask) return ruleAsk(toolName, "write", path, ask);
  if (context.mode === "acceptEdits") {
    return { behavior: "allow", decisionReason: { type: "mode", mode: "acceptEdits" } };
  }
  const allow = matchRule(context.rules.allow, tools, paths, context);
  if (allow) return { behavior: "allow", decisionReason: { type: "rule", rule: allow } };
  return {
    behavior: "passthrough",
    message: `${toolName} wants to write ${path}.`,
    suggestions: [
      {
        type: "addRules",
        behavior: "allow",
        rules: [{ toolName: WRITE_RULE_NAME, ruleContent: suggestedContent(path, context) }],
        destination: "localSettings",
      },
      { type: "setMode", mode: "acceptEdits", destination: "session" },
    ],
  };
}

function suggestedContent(path: string, context: ToolPermissionContext): string {
  const folder = dirname(path);
  const root = context.workingDirectories[0] ? resolve(context.workingDirectories[0]) : undefined;
  if (root !== undefined && isWithin(root, folder)) {
    const rel = relative(root, folder);
    return rel === "" ? "./**" : `./${rel.split(sep).join("/")}/**`;
  }
  return `/${folder}/**`;
}

function safetyAsk(toolName: string, path: string, reason: string, suggestions?: PermissionUpdate[]): PermissionResult {
  return {
    behavior: "ask",
    message: `${toolName} wants to touch ${path}: ${reason}. This always needs explicit approval.`,
    decisionReason: { type: "safetyCheck", reason },
    suggestions,
  };
}

function ruleDeny(verb: string, path: string, rule: PermissionRule): PermissionResult {
  return {
    behavior: "deny",
    message: `Permission to ${verb} ${path} has been denied by ${describeRule(rule)}.`,
    decisionReason: { type: "rule", rule },
  };
}

function ruleAsk(toolName: string, verb: string, path: string, rule: PermissionRule): PermissionResult {
  return {
    behavior: "ask",
    message: `${toolName} wants to ${verb} ${path}; ${describeRule(rule)} says to ask.`,
    decisionReason: { type: "rule", rule },
  };
}
