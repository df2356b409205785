// Who settles an ask: a callback for library users, the interactive prompt (later), and in
// headless runs a deny whose message tells the model it was not allowed, why, and what would allow it.
import type { SettingsFile } from "../../config/settings.js";
import type {
  PermissionAsk,
  PermissionRule,
  PermissionUpdate,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import type { AnyTool, ToolInput, ToolUseContext } from "../../tool/types.js";
import { describeReason, describeRule, formatRule, isOfferableAllowRule, messageWithReason } from "../rules/index.js";
import { trustAdvice, withheldAllowRules, withheldRuleAllowing } from "./withheld-allow.js";

export interface AskRequest {
  tool: AnyTool;
  input: ToolInput;
  ask: PermissionAsk;
  context: ToolUseContext;
  toolUseId: string;
  permissionContext: ToolPermissionContext;
  /** Extra words from the engine (e.g. why auto mode handed the call back). */
  note?: string;
}

export type AskResponse =
  | {
      behavior: "allow";
      updatedInput?: ToolInput;
      /** "Don't ask again": applied at once, and written to settings unless the destination is session. */
      updates?: PermissionUpdate[];
    }
  | {
      behavior: "deny";
      message?: string;
      /** Stop the turn too: the call keeps the refusal as its result (PermissionDeny.interrupt). */
      interrupt?: boolean;
    };

export type AskHandler = (request: AskRequest) => Promise<AskResponse>;

/** What a handler that asks nobody knows of the session it serves. */
export interface HeadlessAskOptions {
  /**
   * The folder whose settings the session reads. A rule added to them by hand applies only once
   * the folder is trusted (again: trust is asked anew when its allow rules change), so advice to
   * add one names that step, or the user follows it in vain.
   */
  settingsFolder?: string;
  /**
   * The folder's settings files cut to what was held back because it is not trusted: a refusal
   * that one of their allow rules would have let through says so (and how to trust the folder).
   */
  withheldFiles?: readonly SettingsFile[];
}

/** What the user could do so that this call would be allowed next time, in words for the model. */
export function howToAllow(request: AskRequest, options: HeadlessAskOptions = {}): string {
  const reason = request.ask.decisionReason;
  if (reason?.type === "safetyCheck") {
    const dirs = request.ask.suggestions?.find((s) => s.type === "addDirectories");
    if (dirs && dirs.type === "addDirectories") {
      return `It is outside the working directories; the user can start the session with --add-dir ${dirs.directories[0]}.`;
    }
    return "It is protected by a safety check that no rule or mode can pre-approve; only a person, asked interactively, can allow it.";
  }
  if (reason?.type === "mode" && reason.mode === "plan") {
    return "Plan mode is on: nothing may change until a plan is approved with ExitPlanMode. If nobody can approve it, give the plan as your final answer.";
  }
  if (reason?.type === "tool" && reason.unattended !== undefined) return reason.unattended;
  if (reason?.type === "rule" && reason.rule.behavior === "ask") {
    return `The rule ${describeRule(reason.rule)} requires asking every time.`;
  }
  const addRules = request.ask.suggestions?.find((s) => s.type === "addRules" && s.behavior === "allow");
  const acceptEdits = request.ask.suggestions?.some((s) => s.type === "setMode" && s.mode === "acceptEdits");
  // A command held back by a folder outside the working directories (`cat /srv/x`): the folder,
  // not a rule, is what lets it through (with a rule for the parts that need one).
  const outside = request.ask.suggestions?.find((s) => s.type === "addDirectories");
  const addDirs = outside?.type === "addDirectories" ? outside.directories.map((d) => `--add-dir ${d}`).join(" ") : "";
  if (!addRules && addDirs) {
    return `It is outside the working directories; the user can start the session with ${addDirs}.`;
  }
  if (!addRules && acceptEdits) {
    return "It is an edit inside the working directories: the user can start the session with --permission-mode acceptEdits.";
  }
  const values = addRules && addRules.type === "addRules" ? addRules.rules : [{ toolName: request.tool.name }];
  // Never advice wider than the call: a rule that would allow any code is not offered.
  if (values.length === 0 || values.some((value) => !isOfferableAllowRule(value))) {
    return "No rule narrower than allowing any command covers this call: the user can approve it once, when asked in an interactive session.";
  }
  const rules = values.map(formatRule);
  const andDirs = addDirs ? `, and start the session with ${addDirs}` : "";
  const andTrust = options.settingsFolder
    ? ` (then \`warden trust ${options.settingsFolder}\`: a folder's own allow rules apply only once it is trusted)`
    : "";
  return `To allow it, the user can pass --allowedTools "${rules.join(",")}" or add ${rules
    .map((r) => JSON.stringify(r))
    .join(", ")} to permissions.allow in .warden/settings.json (or .claude/settings.json)${andTrust}${andDirs}.`;
}

/**
 * Handlers that refuse without asking anyone: no Notification hook fires for their asks (every
 * other handler reaches a person, the UI's dialog or a host's can_use_tool, so the hook fires).
 */
const handlersThatAskNobody = new WeakSet<AskHandler>();

export function asksSomebody(handler: AskHandler): boolean {
  return !handlersThatAskNobody.has(handler);
}

/** Nobody can be asked (headless, MCP server): refuse, and tell the model why. */
export function createHeadlessAskHandler(options: HeadlessAskOptions = {}): AskHandler {
  let withheld: PermissionRule[] | undefined;
  const handler: AskHandler = async (request) => {
    withheld ??= withheldAllowRules(options.withheldFiles ?? []);
    const heldBack = options.settingsFolder ? await withheldRuleAllowing(request, withheld) : undefined;
    // The first line of the message says why; any lines after it are what it carries (a plan).
    const [why = "", ...lines] = messageWithReason(request.ask.message, request.ask.decisionReason).split("\n");
    const carried = lines.join("\n").trim();
    return {
      behavior: "deny",
      message: [
        `Permission to use ${request.tool.name} was denied: the call needs approval and nobody can approve it in this non-interactive session.`,
        `Why it needed approval: ${why.replace(/\.?$/, ".")}`,
        carried === "" ? "" : `\n${carried}\n`,
        request.note ? `Note: ${request.note}.` : "",
        heldBack && options.settingsFolder
          ? trustAdvice(heldBack, options.settingsFolder)
          : howToAllow(request, options),
        "Do not retry the same call; continue without it or explain what you need.",
      ]
        .filter(Boolean)
        .join("\n"),
    };
  };
  handlersThatAskNobody.add(handler);
  return handler;
}

/** dontAsk-style handler: every ask is a deny. */
export const denyAskHandler: AskHandler = async (request) => ({
  behavior: "deny",
  message: `${request.tool.name} was not allowed: it needs approval and this session does not ask (${describeReason(
    request.ask.decisionReason,
  )}).`,
});
handlersThatAskNobody.add(denyAskHandler);
