// Skill: runs one of the session's skills (src/config/skills/). Inline, its instructions join the
// conversation as a message after this call's result, and its `allowed-tools` hold for the rest of
// the prompt; a `context: fork` skill runs as a subagent and its report is the result (fork.ts).
// Made per session by createSkillTool(catalog): the tool carries the catalog and its listing
// reminder (listing.ts), and reads the folders again when asked for a skill it does not know, or,
// before a request, when the folders changed (the listing then tells the model what changed).
import * as z from "zod";
import { findSkill, grantsHonoured, type SkillCatalog, skillPrompt } from "../../config/skills/index.js";
import type { ToolResultBlock } from "../../messages/types.js";
import { userText } from "../../messages/types.js";
import { formatRule } from "../../permissions/rules/index.js";
import { buildTool } from "../../tool/build-tool.js";
import type { PermissionRule } from "../../tool/permission-types.js";
import type { Tool } from "../../tool/types.js";
import { type ForkedSkillRun, forkUnavailable, runForkedSkill } from "./fork.js";
import { grantWhileRunning, parseGrants } from "./grants.js";
import { skillListingSource } from "./listing.js";
import { skillPermission } from "./permission.js";
import { SKILL_PROMPT, SKILL_TOOL_NAME } from "./prompt.js";
import { runCommandShell } from "./shell-marks.js";

const inputSchema = z.strictObject({
  skill: z.string().trim().min(1).describe('The skill\'s name, as listed (e.g. "pdf"; a leading "/" is ignored)'),
  args: z.string().optional().describe("Arguments for the skill: the rest of the request"),
});

export type SkillInput = z.infer<typeof inputSchema>;

export interface SkillOutput {
  name: string;
  /** Allow rules in force until the prompt ends. */
  granted: string[];
  /** `allowed-tools` entries that were not granted, with why. */
  notGranted: string[];
  /** A `context: fork` skill: what its subagent reported. */
  forked?: ForkedSkillRun;
}

const nameOf = (input: Pick<SkillInput, "skill">) => input.skill.trim().replace(/^\//, "");

export interface SkillToolOptions {
  /**
   * Reads the skill folders again. Called when the model names a skill the catalog does not know,
   * so that a skill written while the session runs is found at its first use without a restart;
   * a known name costs nothing.
   */
  rescan?: () => Promise<SkillCatalog>;
  /**
   * A fingerprint of the skill folders (config/skills/stamp.ts), taken before each request: when
   * it changed, the folders are read again and the model is told the new list.
   */
  stamp?: () => string;
  /**
   * The tool joins a session that has already made requests (a skill written while it runs): it
   * is deferred, named to the model and loaded with ToolSearch, so that the requests' tools, and
   * with them the cached prefix of the conversation, stay as they were.
   */
  deferred?: boolean;
}

export function createSkillTool(
  startCatalog: SkillCatalog,
  options: SkillToolOptions = {},
): Tool<SkillInput, SkillOutput> {
  let catalog = startCatalog;
  let stamp = options.stamp?.();
  const rescanIfChanged = async () => {
    if (!options.rescan || !options.stamp) return;
    const now = options.stamp();
    if (now === stamp) return;
    stamp = now;
    try {
      catalog = await options.rescan();
    } catch {
      // The folders could not be read again: the listing stays as it was.
    }
  };
  const lookUp = async (name: string) => {
    const known = findSkill(catalog, name);
    if (known || !options.rescan) return known;
    try {
      catalog = await options.rescan();
    } catch {
      // The folders could not be read again: the skills known so far still run.
    }
    return findSkill(catalog, name);
  };
  return buildTool<SkillInput, SkillOutput>({
    name: SKILL_TOOL_NAME,
    searchHint: "run a skill slash command instructions",
    maxResultSizeChars: 10_000,
    attachments: [skillListingSource(() => catalog, rescanIfChanged, options.deferred === true)],
    ...(options.deferred ? { shouldDefer: true } : {}),
    inputSchema,
    prompt: async () => SKILL_PROMPT,
    description: async (input) => (input?.skill ? `Run the skill ${input.skill}` : "Run a skill"),
    userFacingName: () => "Skill",
    toAutoClassifierInput: (input) => `${nameOf(input)} ${input.args ?? ""}`.trim(),

    async validateInput(input, context) {
      const name = nameOf(input);
      const skill = await lookUp(name);
      if (!skill) {
        const known = catalog.skills.filter((s) => !s.disableModelInvocation).map((s) => s.name);
        return {
          result: false,
          message: `There is no skill named ${JSON.stringify(name)}. ${known.length ? `Skills: ${known.join(", ")}.` : "This session has no skills."}`,
          errorCode: 1,
        };
      }
      if (skill.disableModelInvocation) {
        return {
          result: false,
          message: `The skill ${name} can only be run by the user (as /${name}); do its task yourself or ask the user to run it.`,
          errorCode: 2,
        };
      }
      const cannotFork = skill.context === "fork" ? forkUnavailable(skill, context) : undefined;
      if (cannotFork) {
        return {
          result: false,
          message: `The skill ${name} is meant to run as a subagent (context: fork), but ${cannotFork}. Do the task yourself, reading ${skill.file} for its instructions if they help.`,
          errorCode: 3,
        };
      }
      return { result: true };
    },

    async checkPermissions(input, context) {
      const skill = findSkill(catalog, nameOf(input));
      if (!skill) {
        return {
          behavior: "deny",
          message: `There is no skill named ${nameOf(input)}.`,
          decisionReason: { type: "tool", reason: "unknown skill" },
        };
      }
      return skillPermission(skill, context.getAppState().toolPermissionContext.rules);
    },

    async call(input, context, canUseTool) {
      const name = nameOf(input);
      const skill = findSkill(catalog, name);
      if (!skill) throw new Error(`There is no skill named ${name}.`);
      const text = await skillPrompt(skill, input.args ?? "");
      const granted: string[] = [];
      const notGranted: string[] = [];
      let grantedRules: PermissionRule[] = [];
      if (skill.allowedTools.length > 0) {
        if (!grantsHonoured(catalog, skill)) {
          notGranted.push(
            `${skill.allowedTools.join(", ")} (a project skill's allowed-tools apply once the folder is trusted: warden trust)`,
          );
        } else {
          const grants = parseGrants(skill.allowedTools, context.options.cwd);
          for (const rule of grants.rules) granted.push(formatRule(rule.value));
          for (const { entry, why } of grants.rejected) notGranted.push(`${entry} (${why})`);
          grantedRules = grants.rules;
        }
      }
      if (skill.context === "fork") {
        // The grants hold for the subagent only: this conversation gets its report, not the skill.
        const forked = await runForkedSkill(skill, text, grantedRules, context, canUseTool);
        return { data: { name, granted, notGranted, forked } };
      }
      const contextModifier = grantedRules.length > 0 ? grantWhileRunning(grantedRules) : undefined;
      // Its `!`command`` marks run now, as Bash calls with its grants in force (shell-marks.ts).
      const withGrants = contextModifier ? contextModifier(context) : context;
      const expanded = await runCommandShell(text, {
        contextFor: (abortController) => ({ ...withGrants, abortController }),
        canUseTool,
        signal: context.abortController.signal,
        origin: { commandName: name, invokedBy: "claude" },
      });
      const message = userText(`<skill name="${name}">\n${expanded}\n</skill>`, true);
      return {
        data: { name, granted, notGranted },
        newMessages: [message],
        ...(contextModifier ? { contextModifier } : {}),
      };
    },

    mapToolResult(output, toolUseId) {
      if (output.forked) return forkedResult(output, output.forked, toolUseId);
      const lines = [`The skill ${output.name} is loaded: its instructions follow. Carry them out for the request.`];
      if (output.granted.length)
        lines.push(`Allowed without asking until this request is done: ${output.granted.join(", ")}.`);
      if (output.notGranted.length) lines.push(`Not granted: ${output.notGranted.join("; ")}.`);
      return { type: "tool_result", tool_use_id: toolUseId, content: lines.join("\n") };
    },
  });
}

function forkedResult(output: SkillOutput, run: ForkedSkillRun, toolUseId: string): ToolResultBlock {
  const stopped = run.reason !== "completed";
  const head = `The skill ${output.name} ran as a subagent (${run.agentType}, ${run.turns} turns)${stopped ? ` and stopped (${run.reason}${run.error ? `: ${run.error}` : ""})` : ""}. Its report:`;
  const lines = [head, "", run.text || "(no text)"];
  if (output.granted.length) lines.push("", `It was allowed without asking: ${output.granted.join(", ")}.`);
  if (output.notGranted.length) lines.push("", `Not granted: ${output.notGranted.join("; ")}.`);
  return {
    type: "tool_result",
    tool_use_id: toolUseId,
    content: lines.join("\n"),
    ...(stopped ? { is_error: true } : {}),
  };
}
