// Skills and slash commands for a headless session: discovered once at start (warnings on stderr),
// the Skill tool offered when the model may run at least one, and a `-p "/name args"` prompt
// expanded into the command's or skill's text. A command's `allowed-tools` become session allow
// rules: a headless run is that one prompt, so they hold exactly while the command runs.
// Start-up pays only for an existence check of the skill and command folders: the discovery, the
// Skill tool and the expansion load when one of them exists.

import { pluginSkillFolders } from "../../config/plugins/components.js";
import type { LoadedSettings } from "../../config/settings.js";
import type { SkillCatalog, SkillDefinition, SlashCommand, SlashExpansion } from "../../config/skills/index.js";
import { anySkillFolder } from "../../config/skills/locations.js";
import { isWorkspaceTrusted } from "../../config/trust/index.js";
import { parseRule, splitRuleList } from "../../permissions/rules/index.js";
import { applyPermissionUpdates } from "../../permissions/settings/index.js";
import type { PermissionRuleValue, ToolPermissionContext } from "../../tool/permission-types.js";
import type { ToolCallHooks } from "../../tool/tool-call-hooks.js";
import type { AnyTool } from "../../tool/types.js";

export interface SessionSkills {
  catalog: SkillCatalog;
  /** The Skill tool, when the model may run at least one skill. */
  tools: AnyTool[];
}

export async function setUpSkills(
  cwd: string,
  settings: LoadedSettings,
  warn: (message: string) => void,
): Promise<SessionSkills> {
  const pluginFolders = settings.plugins ? pluginSkillFolders(settings.plugins.plugins, warn) : [];
  const trust = {
    projectTrusted: isWorkspaceTrusted(settings.workspaceTrust),
    ...(settings.workspaceTrust.skillGrants ? { trustedGrants: settings.workspaceTrust.skillGrants } : {}),
    ...(pluginFolders.length > 0 && { pluginFolders }),
  };
  if (!anySkillFolder(cwd, pluginFolders))
    return { catalog: { skills: [], commands: [], ...trust, warnings: [] }, tools: [] };
  const { discoverSkills } = await import("../../config/skills/discover.js");
  const catalog = await discoverSkills({ cwd, ...trust });
  for (const warning of catalog.warnings) warn(warning);
  const { modelInvocableSkills } = await import("../../tools/skill/listing.js");
  if (modelInvocableSkills(catalog).length === 0) return { catalog, tools: [] };
  return { catalog, tools: [await createLiveSkillTool(cwd, catalog)] };
}

/**
 * The Skill tool over `catalog`, reading the folders again for a skill written since (same trust):
 * when the model names one it does not know, and before a request when the folders changed.
 * `deferred` for a tool that joins a session already under way (see skill-arrival.ts).
 */
export async function createLiveSkillTool(
  cwd: string,
  catalog: SkillCatalog,
  options: { deferred?: boolean } = {},
): Promise<AnyTool> {
  const [{ createSkillTool }, { discoverSkills }, { skillFoldersStamp }, { catalogTrust }] = await Promise.all([
    import("../../tools/skill/tool.js"),
    import("../../config/skills/discover.js"),
    import("../../config/skills/stamp.js"),
    import("../../config/skills/types.js"),
  ]);
  return createSkillTool(catalog, {
    rescan: () => discoverSkills({ cwd, ...catalogTrust(catalog) }),
    stamp: () => skillFoldersStamp(cwd),
    ...(options.deferred ? { deferred: true } : {}),
  });
}

export type ExpandedPrompt =
  | {
      ok: true;
      prompt: string;
      permissionContext: ToolPermissionContext;
      /**
       * The prompt is a command's or an inline skill's text: its `!`command`` marks are to be run
       * (tools/skill/shell-marks.ts) once the session exists, with `permissionContext`. Never for text the
       * person typed: a `!`...`` there is only text.
       */
      fromFile?: true;
      /**
       * What UserPromptExpansion hooks added: it follows the text once the text's shell marks
       * ran (withHookContext), so nothing a hook prints is ever run as a command.
       */
      hookContext?: string;
      /** The command's or inline skill's `model`: the model its run asks (a forked skill's child takes it itself). */
      model?: string;
    }
  | { ok: false; message: string };

/**
 * The name of a `/name ...` prompt that names none of the catalog's commands or skills (the
 * built-in ones are the front end's), so that a mistyped or unsupported command (`/rewind`) is
 * answered on screen instead of being sent to the model as a prompt. A path (`/tmp/x failed`)
 * is no command name.
 */
export async function unknownSlashCommand(prompt: string, catalog: SkillCatalog): Promise<string | undefined> {
  const match = /^\/([A-Za-z][\w:.-]*)(?:\s|$)/.exec(prompt.trim());
  if (!match) return undefined;
  const name = match[1] as string;
  const { findCommand, findSkill } = await import("../../config/skills/index.js");
  return findCommand(catalog, name) || findSkill(catalog, name) ? undefined : name;
}

/**
 * The prompt to send: a `/name args` prompt naming a command or skill becomes its text (with the
 * grants of its `allowed-tools` added to the permission context when they are honoured); anything
 * else is sent as it is.
 */
export async function expandPrompt(
  prompt: string,
  catalog: SkillCatalog,
  permissionContext: ToolPermissionContext,
  cwd: string,
  warn: (message: string) => void,
  hooks?: Pick<ToolCallHooks, "has" | "userPromptExpansion">,
): Promise<ExpandedPrompt> {
  if (!prompt.trimStart().startsWith("/") || catalog.skills.length + catalog.commands.length === 0) {
    return { ok: true, prompt, permissionContext };
  }
  const { expandSlashPrompt, grantsHonoured } = await import("../../config/skills/index.js");
  const found = await expandSlashPrompt(prompt, catalog);
  if (!found) return { ok: true, prompt, permissionContext };
  const item = found.kind === "command" ? found.command : found.skill;
  let hookContext: string | undefined;
  if (hooks?.has("UserPromptExpansion")) {
    const args = prompt
      .trim()
      .slice(item.name.length + 1)
      .trim();
    const answer = await hooks.userPromptExpansion({
      command_name: item.name,
      command_args: args,
      command_source: item.level,
      prompt,
    });
    for (const error of answer.errors) warn(`UserPromptExpansion hook: ${error}`);
    if (answer.blocked !== undefined) {
      return { ok: false, message: `a UserPromptExpansion hook blocked /${item.name}: ${answer.blocked}` };
    }
    if (answer.additionalContext.length > 0) hookContext = answer.additionalContext.join("\n\n");
  }
  const expanded = await expandFound(found, item, prompt, catalog, permissionContext, cwd, warn, grantsHonoured);
  if (!expanded.ok) return expanded;
  const forked = found.kind === "skill" && found.skill.context === "fork";
  const model = forked || item.model === undefined || item.model === "inherit" ? undefined : item.model;
  return { ...expanded, ...(hookContext !== undefined && { hookContext }), ...(model !== undefined && { model }) };
}

/** The text after the prompt's hook context (kept apart so a `!`command`` in it never runs). */
export function withHookContext(text: string, expanded: ExpandedPrompt): string {
  return expanded.ok && expanded.hookContext !== undefined ? `${text}\n\n${expanded.hookContext}` : text;
}

async function expandFound(
  expansion: SlashExpansion,
  item: SkillDefinition | SlashCommand,
  prompt: string,
  catalog: SkillCatalog,
  permissionContext: ToolPermissionContext,
  cwd: string,
  warn: (message: string) => void,
  grantsHonoured: (catalog: SkillCatalog, item: SkillDefinition | SlashCommand) => boolean,
): Promise<ExpandedPrompt> {
  if (expansion.kind === "skill" && expansion.skill.context === "fork") {
    if (expansion.skill.disableModelInvocation) {
      return {
        ok: false,
        message: `the skill ${item.name} runs as a subagent (context: fork), which the Skill tool starts, and its disable-model-invocation keeps it from the Skill tool`,
      };
    }
    // The subagent is started by the Skill tool: the model is asked to call it, and the user's own
    // `/name` is the approval of that call (its grants are the Skill tool's to give the child).
    const args = prompt
      .trim()
      .slice(item.name.length + 1)
      .trim();
    return {
      ok: true,
      prompt: `Run the skill ${JSON.stringify(item.name)} with the Skill tool${args ? `, args ${JSON.stringify(args)}` : ""}. It runs as a subagent; then give me its report.`,
      permissionContext: applyPermissionUpdates(
        permissionContext,
        [
          {
            type: "addRules",
            behavior: "allow",
            rules: [{ toolName: "Skill", ruleContent: item.name }],
            destination: "session",
          },
        ],
        cwd,
      ),
    };
  }
  if (item.allowedTools.length === 0) return { ok: true, prompt: expansion.prompt, permissionContext, fromFile: true };
  if (!grantsHonoured(catalog, item)) {
    warn(`${item.file}: its allowed-tools are ignored until you trust this folder (warden trust)`);
    return { ok: true, prompt: expansion.prompt, permissionContext, fromFile: true };
  }
  const rules: PermissionRuleValue[] = [];
  for (const entry of item.allowedTools.flatMap((text) => splitRuleList(text))) {
    const parsed = parseRule(entry);
    if (parsed.ok) rules.push(parsed.value);
    else warn(`${item.file}: allowed-tools entry ${JSON.stringify(entry)} is ignored: ${parsed.error}`);
  }
  return {
    ok: true,
    prompt: expansion.prompt,
    permissionContext: applyPermissionUpdates(
      permissionContext,
      [{ type: "addRules", behavior: "allow", rules, destination: "session" }],
      cwd,
    ),
    fromFile: true,
  };
}
