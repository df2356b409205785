// One session of the interactive UI, wired as the headless one is (model, settings read once,
// permissions, hooks, MCP servers, a resumed conversation) but with the person as the answer to
// every ask: the engine's ask handler is the UI's permission queue. /clear, /resume and a plugin
// reload open another one through the same function (/model switches in place). The set-up is the one every front end shares (session/).

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { sessionArtifactsDir } from "../../config/paths.js";
import { settingsValue } from "../../config/settings.js";
import type { SkillCatalog } from "../../config/skills/index.js";
import type { QueryEvent, TerminalEvent } from "../../loop/events.js";
import { displayedThroughHooks } from "../../loop/message-display.js";
import type { ToolUseBlock, UserMessage } from "../../messages/types.js";
import { runToolUse } from "../../orchestration/run-tool-use.js";
import { latestSessionId } from "../../session/transcript-reader.js";
import type { PermissionRule } from "../../tool/permission-types.js";
import { ReadFileState } from "../../tool/read-file-state.js";
import type { ToolUseContext } from "../../tool/types.js";
import { builtInCatalog } from "../../tools/agent/catalog.js";
import { SKILL_TOOL_NAME } from "../../tools/skill/prompt.js";
import type {
  ElicitationQueue,
  OpenSessionOptions,
  PermissionQueue,
  SamplingQueue,
  SessionHandle,
} from "../../ui/run.js";
import type { SessionConfig } from "../flags/session-config.js";
import { forgetSessionPermissions } from "../session/permissions.js";
import { planSession } from "../session/plan.js";
import { createLiveSkillTool, expandPrompt, unknownSlashCommand, withHookContext } from "../session/skills-setup.js";
import { type BuiltSession, startSession } from "../session/start.js";
import { mcpServersControl } from "./mcp.js";
import { attachMentions } from "./mentions.js";
import { serverLogNotices } from "./server-log-notices.js";
import { type LiveSkillCatalog, liveSkillCatalog } from "./skills.js";
import { renderStatusLine, statusLineInput } from "./status-line-command.js";

export async function openInteractiveSession(
  config: SessionConfig,
  person: { permissions: PermissionQueue; elicitations: ElicitationQueue; samplings: SamplingQueue },
  options: OpenSessionOptions,
): Promise<SessionHandle> {
  const notices: string[] = [];
  const warn = (message: string) => void notices.push(`warning: ${message}`);
  const serverLogs = serverLogNotices({ verbose: config.verbose });
  if (options.rereadSettings) forgetSessionPermissions(config);
  const plan = await planSession(config, {
    ownsProcess: true,
    resume: options.resume,
    model: options.model,
    warn,
    inform: (message) => void notices.push(message),
  });
  const built = await startSession(plan, {
    askHandler: person.permissions.ask,
    isNonInteractive: false,
    warn,
    // Servers' questions (elicitation) wait for the person in the UI's form.
    onElicitation: person.elicitations.ask,
    // A server's request for a completion runs on the model only once the person says yes.
    approveSampling: person.samplings.ask,
    onServerLog: serverLogs.onServerLog,
  });
  // Every message servers send is kept in the session's folder (the screen shows warnings and worse).
  serverLogs.setLogFile(join(sessionArtifactsDir(config.cwd, built.session.sessionId), "mcp-servers.log"));
  const { session, canUseTool, mcp, agentCatalog } = built;
  await built.runStartHooks();
  const skills = liveSkillCatalog(config.cwd, built.skills.catalog, warn, (catalog) =>
    offerSkillTool(session, config.cwd, catalog),
  );
  const statusLine = settingsValue(plan.permissions.settings, "statusLine");
  const startedAt = Date.now();
  const displayHooks = plan.permissions.hooks;
  return {
    engine: session,
    commands: built.commands,
    // MessageDisplay hooks see the model's text on its way to the screen.
    runPrompt: (prompt) =>
      displayedThroughHooks(runWithSlashCommands(built, skills, prompt, config.cwd, warn), displayHooks, warn),
    runWake: () => displayedThroughHooks(built.runPrompt(undefined), displayHooks, warn),
    customCommands: () => skills.listing(),
    attachMentions: (prompt, signal) => attachMentions(prompt, session, built.commands, canUseTool, signal),
    compact: (instructions) => built.compact(instructions),
    runShell: async (command, signal) => {
      const toolUse: ToolUseBlock = {
        type: "tool_use",
        id: `toolu_shell_${randomUUID()}`,
        name: "Bash",
        input: { command },
      };
      const abortController = new AbortController();
      signal.addEventListener("abort", () => abortController.abort("user"), { once: true });
      const context: ToolUseContext = {
        options: {
          tools: [...session.tools],
          model: session.modelLabel,
          cwd: config.cwd,
          sessionId: session.sessionId,
          sessionDir: sessionArtifactsDir(config.cwd, session.sessionId),
          isNonInteractive: false,
          verbose: config.verbose,
        },
        abortController,
        messages: session.messages,
        readFileState: new ReadFileState(),
        getAppState: () => session.getAppState(),
        setAppState: (update) => session.setAppState(update),
        channels: session.channels,
      };
      const { result } = await runToolUse(toolUse, context, canUseTool, undefined);
      const output = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
      const note: UserMessage = {
        role: "user",
        content: [{ type: "text", text: `The user ran a shell command: ${command}\nIts output:\n${output}` }],
      };
      // Taken into the conversation when the next prompt starts (or the running one's next request).
      built.commands.queueMessage(note);
      return { toolUse, result };
    },
    ...(statusLine && {
      customStatusLine: () =>
        renderStatusLine(
          statusLine,
          statusLineInput(session, startedAt, built.outputStyle),
          config.cwd,
          process.stdout.columns,
        ),
    }),
    mcp: mcpServersControl(mcp.live),
    outputStyle: built.outputStyle,
    agents: (agentCatalog ?? builtInCatalog()).agents,
    notices,
    liveNotices: { drain: serverLogs.drain, subscribe: serverLogs.subscribe },
    async close() {
      await session.getAppState().backgroundTasks?.stopAll();
      await built.close("prompt_input_exit");
    },
  };
}

/**
 * A session that started without skills has no Skill tool: once the folders hold one the model may
 * run (written while the session runs), the tool joins the pool from the next request, deferred
 * (ToolSearch loads it; the requests' tools stay as they were), so a new skill (a `context: fork`
 * one too) runs without a restart. The session that has the tool finds new skills itself
 * (createLiveSkillTool); before a request, skill-arrival.ts notices a skill nobody listed.
 */
async function offerSkillTool(session: BuiltSession["session"], cwd: string, catalog: SkillCatalog): Promise<void> {
  if (session.tools.some((tool) => tool.name === SKILL_TOOL_NAME)) return;
  const { modelInvocableSkills } = await import("../../tools/skill/listing.js");
  if (modelInvocableSkills(catalog).length === 0) return;
  session.addTools([await createLiveSkillTool(cwd, catalog, { deferred: true })]);
}

/** The session id `--continue` means: the latest of the folder. */
export function latestSession(cwd: string): string | undefined {
  return latestSessionId(cwd);
}

/**
 * A prompt typed in the UI: `/name args` naming one of the user's or the project's commands or
 * skills becomes its text, as with `-p`. Its `allowed-tools` hold while this prompt runs and are
 * taken away when it ends (a later prompt is not covered by them); so does its `model`, which
 * answers this prompt and then gives the session back the model it had.
 */
async function* runWithSlashCommands(
  built: BuiltSession,
  skills: LiveSkillCatalog,
  prompt: string,
  cwd: string,
  warn: (message: string) => void,
): AsyncGenerator<QueryEvent, TerminalEvent | undefined> {
  const { session } = built;
  const before = session.getAppState().toolPermissionContext;
  // Read again so that a command written since the session started runs as it is now.
  const catalog = prompt.trimStart().startsWith("/") ? await skills.current() : built.skills.catalog;
  const unknown = await unknownSlashCommand(prompt, catalog);
  if (unknown !== undefined) {
    warn(`Unknown command /${unknown}: nothing was sent to the model (/help lists the commands).`);
    return undefined;
  }
  const expanded = await expandPrompt(prompt, catalog, before, cwd, warn, session.getAppState().hooks);
  if (!expanded.ok) {
    warn(expanded.message);
    return undefined;
  }
  const granted = expanded.permissionContext.rules.allow.filter((rule) => !before.rules.allow.includes(rule));
  const withRules = (keep: (rule: PermissionRule) => boolean, extra: readonly PermissionRule[]) =>
    built.commands.updatePermissions((context) => ({
      ...context,
      rules: { ...context.rules, allow: [...context.rules.allow.filter(keep), ...extra] },
    }));
  if (granted.length > 0) withRules(() => true, granted);
  const modelBefore = expanded.model !== undefined ? session.modelLabel : undefined;
  let modelSwitched = false;
  try {
    if (expanded.model !== undefined) {
      try {
        await built.commands.setModel(expanded.model, "command");
        modelSwitched = true;
      } catch (error) {
        warn(
          `the model ${JSON.stringify(expanded.model)} the command asks for is not used: ${(error as Error).message}`,
        );
      }
    }
    let text = expanded.prompt;
    if (expanded.fromFile) {
      // Its `!`command`` marks run now, with its grants in force; one that asks asks the person.
      // Esc (the session's interrupt) stops the one running, skips the rest and keeps the prompt back.
      const { runPromptMarks, shellInterruptedNotice } = await import("../../tools/skill/shell-marks.js");
      const run = await runPromptMarks(text, session, built.canUseTool, prompt);
      if (run.interrupted) {
        warn(shellInterruptedNotice(prompt));
        return undefined;
      }
      text = run.text;
    }
    return yield* built.runPrompt(withHookContext(text, expanded));
  } finally {
    if (granted.length > 0) withRules((rule) => !granted.includes(rule), []);
    if (modelSwitched && modelBefore !== undefined) {
      await built.commands
        .setModel(modelBefore, "command")
        .catch((error: unknown) =>
          warn(`the session's model ${modelBefore} was not taken back after the command: ${(error as Error).message}`),
        );
    }
  }
}
