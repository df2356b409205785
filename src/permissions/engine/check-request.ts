// Deciding a tool call without running anything: what `warden permissions check` prints, and
// what tests and benchmarks run whole corpora through.
import { resolve } from "node:path";
import type { AppState } from "../../tool/app-state.js";
import { createToolUseContext } from "../../tool/context.js";
import type {
  PermissionBehavior,
  PermissionDecision,
  PermissionUpdate,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import { findToolByName } from "../../tool/pool.js";
import { formatZodError } from "../../tool/schema.js";
import type { AnyTool, ToolInput } from "../../tool/types.js";
import { hasPermissionsToUseTool } from "../pipeline/index.js";
import { describeReason, formatRule, mergeRules, rulesFromStrings } from "../rules/index.js";
import { isPermissionMode } from "../settings/index.js";

/** One request as `--jsonl` reads it. Bash requests may carry `command` at the top level. */
export interface CheckRequest {
  tool?: string;
  input?: ToolInput;
  command?: string;
  rules?: Partial<Record<PermissionBehavior, string[]>>;
  mode?: string;
}

export interface DecisionLine {
  behavior: "allow" | "ask" | "deny";
  reason: string;
  rule: string | null;
  source: string | null;
  file?: string;
  line?: number;
  /**
   * For an ask: what the prompt would offer as "don't ask again" (the Agent SDK's
   * permission_suggestions), and the allow rules among them as written in settings. Empty when no
   * rule is narrow enough: the person could allow the call once only.
   */
  suggestions?: PermissionUpdate[];
  suggestedRules?: string[];
}

export type CheckOutcome = { ok: true; line: DecisionLine } | { ok: false; error: string };

export function toDecisionLine(decision: PermissionDecision): DecisionLine {
  const reason = decision.decisionReason;
  const line: DecisionLine = {
    behavior: decision.behavior,
    reason: decision.behavior === "allow" ? describeReason(reason) : decision.message,
    rule: null,
    source: reason ? reason.type : null,
  };
  if (decision.behavior === "ask") {
    line.suggestions = decision.suggestions ?? [];
    line.suggestedRules = line.suggestions.flatMap((update) =>
      update.type === "addRules" && update.behavior === "allow" ? update.rules.map(formatRule) : [],
    );
  }
  if (reason?.type === "rule") {
    line.rule = formatRule(reason.rule.value);
    line.source = reason.rule.source;
    if (reason.rule.file) line.file = reason.rule.file;
    if (reason.rule.line !== undefined) line.line = reason.rule.line;
  }
  return line;
}

export interface PermissionChecker {
  check(request: CheckRequest): Promise<CheckOutcome>;
}

/**
 * A checker bound to a tool pool and a base context (settings and flags, loaded once). Each
 * request's own rules join as session rules and its mode replaces the base mode.
 */
export function createPermissionChecker(
  tools: readonly AnyTool[],
  base: ToolPermissionContext,
  cwd: string,
  /** Other session state tools consult in their checks (e.g. the sandbox settings). Hooks never run here. */
  appState: Partial<AppState> = {},
): PermissionChecker {
  const root = resolve(cwd);
  const context = createToolUseContext({
    options: {
      tools: [...tools],
      model: "none",
      cwd: root,
      sessionId: "permissions-check",
      sessionDir: root,
      isNonInteractive: true,
    },
    appState: { ...appState, hooks: undefined, toolPermissionContext: base },
  });
  return {
    async check(request) {
      // Corpus lines name no tool: a bare top-level `command` is a Bash call.
      const toolName = request.tool ?? (typeof request.command === "string" ? "Bash" : undefined);
      if (typeof toolName !== "string") return { ok: false, error: 'the request needs a "tool" name' };
      const tool = findToolByName(tools, toolName);
      if (!tool) {
        return {
          ok: false,
          error: `unknown tool "${toolName}" (known: ${tools.map((t) => t.name).join(", ") || "none"})`,
        };
      }
      const rawInput = { ...(request.input ?? {}) } as ToolInput;
      if (request.command !== undefined && rawInput.command === undefined) rawInput.command = request.command;
      const parsed = tool.inputSchema.safeParse(rawInput);
      if (!parsed.success) return { ok: false, error: formatZodError(tool.name, parsed.error) };

      let permissionContext = base;
      if (request.mode !== undefined) {
        if (!isPermissionMode(request.mode)) return { ok: false, error: `unknown mode "${request.mode}"` };
        // A request may ask for bypass: the check only reports what bypass would do, it runs nothing.
        permissionContext = {
          ...permissionContext,
          mode: request.mode,
          isBypassPermissionsModeAvailable:
            permissionContext.isBypassPermissionsModeAvailable || request.mode === "bypassPermissions",
        };
      }
      if (request.rules && !permissionContext.managedRulesOnly) {
        const extra = rulesFromStrings(request.rules, "session", root, "request rules");
        if (extra.issues.length) return { ok: false, error: extra.issues.map((i) => i.message).join("; ") };
        const added = extra.rules.allow.length + extra.rules.deny.length + extra.rules.ask.length;
        if (added > 0)
          permissionContext = { ...permissionContext, rules: mergeRules(permissionContext.rules, extra.rules) };
      }
      const decision = await hasPermissionsToUseTool(tool, parsed.data as ToolInput, context, permissionContext);
      return { ok: true, line: toDecisionLine(decision) };
    },
  };
}
