// /permissions: the rules in force with their sources; `allow|deny|ask RULE` adds one to
// .warden/settings.local.json; `remove [RULE]` takes one out of the session and of the settings
// file it came from (a pick list when the rule is not given, or when several sources hold it).
import { formatRule, parseRule, RULE_BEHAVIORS } from "../../permissions/rules/index.js";
import {
  persistPermissionUpdate,
  type RuleRemoval,
  removeRuleFromSource,
  withoutRule,
} from "../../permissions/settings/index.js";
import type { PermissionBehavior, PermissionRule, PermissionUpdate } from "../../tool/permission-types.js";
import { displayPath } from "../transcript/tool-summary.js";
import type { CommandContext, SlashCommand } from "./slash-commands.js";

const USAGE =
  "Usage: /permissions · /permissions allow|deny|ask RULE (e.g. Bash(npm test:*)) · /permissions remove [allow|deny|ask] [RULE]";

export const permissionsCommand: SlashCommand = {
  name: "permissions",
  argumentHint: "[allow|deny|ask RULE | remove [RULE]]",
  description: "The rules in force and their sources; add one (to .warden/settings.local.json) or remove one",
  run: async (ctx, args) => {
    if (!args) {
      ctx.transcript.addNotice(permissionsText(ctx));
      return;
    }
    const remove = /^remove(?:\s+(allow|deny|ask))?(?:\s+(.+))?$/.exec(args);
    if (remove) {
      await removeCommand(ctx, remove[1] as PermissionBehavior | undefined, remove[2]);
      return;
    }
    const add = /^(allow|deny|ask)\s+(.+)$/.exec(args);
    if (!add) {
      ctx.transcript.addNotice(USAGE, "error");
      return;
    }
    addRule(ctx, add[1] as PermissionBehavior, add[2] as string);
  },
};

function addRule(ctx: CommandContext, behavior: PermissionBehavior, text: string): void {
  const parsed = parseRule(text);
  if (!parsed.ok) {
    ctx.transcript.addNotice(`Not a rule: ${parsed.error}`, "error");
    return;
  }
  const engine = ctx.handle.engine;
  const update: PermissionUpdate = { type: "addRules", behavior, rules: [parsed.value], destination: "localSettings" };
  const file = persistPermissionUpdate(update, engine.cwd);
  ctx.handle.commands.applyPermissionUpdate(update);
  ctx.transcript.addNotice(
    `Added ${behavior} rule ${formatRule(parsed.value)}${file ? ` to ${displayPath(file, engine.cwd)}` : ""}.`,
  );
}

async function removeCommand(
  ctx: CommandContext,
  behavior: PermissionBehavior | undefined,
  text: string | undefined,
): Promise<void> {
  const engine = ctx.handle.engine;
  const rules = engine.getAppState().toolPermissionContext.rules;
  let candidates = RULE_BEHAVIORS.filter((b) => behavior === undefined || b === behavior).flatMap((b) => rules[b]);
  if (text !== undefined) {
    const parsed = parseRule(text);
    if (!parsed.ok) {
      ctx.transcript.addNotice(`Not a rule: ${parsed.error}`, "error");
      return;
    }
    const wanted = formatRule(parsed.value);
    candidates = candidates.filter((r) => formatRule(r.value) === wanted);
    if (candidates.length === 0) {
      ctx.transcript.addNotice(
        `No ${behavior ?? ""}${behavior ? " " : ""}rule ${wanted} is in force (see /permissions).`,
        "error",
      );
      return;
    }
  }
  if (candidates.length === 0) {
    ctx.transcript.addNotice("No rules are in force.");
    return;
  }
  let chosen: PermissionRule | undefined = candidates[0];
  if (candidates.length > 1) {
    const picked = await ctx.pick(
      "Remove which rule?",
      candidates.map((rule, index) => ({ label: ruleLabel(rule, engine.cwd, true), value: String(index) })),
    );
    chosen = picked === undefined ? undefined : candidates[Number(picked)];
  }
  if (!chosen) return;
  const rule = chosen;
  let removal: RuleRemoval;
  try {
    removal = removeRuleFromSource(rule, engine.cwd);
  } catch (error) {
    ctx.transcript.addNotice(
      `Could not remove ${formatRule(rule.value)}: ${error instanceof Error ? error.message : String(error)}`,
      "error",
    );
    return;
  }
  if (!removal.ok) {
    ctx.transcript.addNotice(`${formatRule(rule.value)} cannot be removed here: ${removal.reason}.`, "error");
    return;
  }
  ctx.handle.commands.updatePermissions((context) => withoutRule(context, rule));
  ctx.transcript.addNotice(
    `Removed ${rule.behavior} rule ${formatRule(rule.value)} ${
      removal.file ? `from ${displayPath(removal.file, engine.cwd)}` : `(${rule.source}: for the rest of this session)`
    }.`,
  );
}

function ruleLabel(rule: PermissionRule, cwd: string, withBehavior: boolean): string {
  return `${withBehavior ? `${rule.behavior} ` : ""}${formatRule(rule.value)}  · ${rule.source}${rule.file ? ` (${displayPath(rule.file, cwd)})` : ""}`;
}

function permissionsText(ctx: CommandContext): string {
  const context = ctx.handle.engine.getAppState().toolPermissionContext;
  const cwd = ctx.handle.engine.cwd;
  const lines = [`Mode: ${context.mode}`, `Working directories: ${context.workingDirectories.join(", ")}`];
  for (const behavior of RULE_BEHAVIORS) {
    const rules = context.rules[behavior];
    lines.push(`${behavior} (${rules.length}):`);
    for (const rule of rules) lines.push(`  ${ruleLabel(rule, cwd, false)}`);
  }
  lines.push("Add with /permissions allow|deny|ask RULE; remove with /permissions remove [RULE].");
  return lines.join("\n");
}
