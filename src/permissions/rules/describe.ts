// Words for a decision's reason: the same text goes to the prompt, the transcript and the model.
import type { PermissionDecisionReason, PermissionRule } from "../../tool/permission-types.js";
import { formatRule } from "./rule-string.js";

const SOURCE_LABELS: Record<PermissionRule["source"], string> = {
  userSettings: "user settings",
  projectSettings: "project settings",
  localSettings: "local settings",
  cliArg: "command-line flags",
  policySettings: "managed policy",
  session: "this session",
};

/** `Bash(rm:*)` (deny rule from project settings, /p/.warden/settings.json:4) */
export function describeRule(rule: PermissionRule): string {
  const where = rule.file ? `, ${rule.file}${rule.line !== undefined ? `:${rule.line}` : ""}` : "";
  return `${formatRule(rule.value)} (${rule.behavior} rule from ${SOURCE_LABELS[rule.source]}${where})`;
}

export function describeReason(reason: PermissionDecisionReason | undefined): string {
  if (!reason) return "no rule or mode decided";
  switch (reason.type) {
    case "rule":
      return `rule ${describeRule(reason.rule)}`;
    case "mode":
      return `permission mode ${reason.mode}`;
    case "safetyCheck":
      return `safety check: ${reason.reason}`;
    case "tool":
      return reason.reason;
    case "hook":
      return `hook ${reason.hookName}${reason.reason ? `: ${reason.reason}` : ""}`;
    case "classifier":
      return `classifier ${reason.classifier}: ${reason.reason}`;
    case "subcommandResults":
      return `parts of the command: ${Object.entries(reason.reasons)
        .map(([part, result]) => `${part} → ${result.behavior}`)
        .join("; ")}`;
    case "other":
      return reason.reason;
  }
}

/**
 * What to say after `message` about why: nothing when the message already says it; only who
 * decided when the message already carries the hook's own words (a hook's ask reads "A PreToolUse
 * hook asks for approval of Bash: REASON", and "(hook CMD: REASON)" after it said REASON twice).
 */
export function reasonBesides(message: string, reason: PermissionDecisionReason | undefined): string | undefined {
  const described = describeReason(reason);
  if (message.includes(described)) return undefined;
  if (reason?.type === "hook" && reason.reason && message.includes(reason.reason)) return `hook ${reason.hookName}`;
  return described;
}

/**
 * An ask's message with its reason after it, unless the message already says it (a tool's message
 * often is its reason in a sentence): the same words twice read as two problems.
 */
export function messageWithReason(message: string, reason: PermissionDecisionReason | undefined): string {
  const described = reasonBesides(message, reason);
  if (described === undefined) return message;
  // A message of several lines (a plan, a diff) has its summary first: the reason goes there, not
  // onto the end of the last line of the text it carries.
  const end = message.indexOf("\n");
  return end === -1 ? `${message} (${described})` : `${message.slice(0, end)} (${described})${message.slice(end)}`;
}
