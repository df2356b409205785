// The built-in slash commands.
import { sessionArtifactsDir } from "../../config/paths.js";
import { INIT_PROMPT } from "../../config/skills/built-in-commands.js";
import { listFileChanges, UndoRefusedError, undoLastChanges } from "../../session/file-history.js";
import { listSavedSessions } from "../../session/session-list.js";
import { currentTaskList } from "../../tool/task-list.js";
import { knownCost } from "../app/status.js";
import { formatTokens } from "../components/StatusLine.js";
import { displayPath, oneLine } from "../transcript/tool-summary.js";
import { addDirCommand } from "./add-dir-command.js";
import { mcpCommand } from "./mcp-command.js";
import { outputStyleCommand } from "./output-style-command.js";
import { permissionsCommand } from "./permissions-command.js";
import { pluginCommand } from "./plugin-command.js";
import { sessionInfoCommands } from "./session-info-commands.js";
import type { CommandContext, SlashCommand } from "./slash-commands.js";

const HELP_COLUMN_MAX = 36;

/**
 * `text` in lines of at most `room` characters, broken at spaces (a word longer than that stands
 * alone on its line); a room under 20 is taken as 20, so that a narrow terminal still reads.
 */
export function wrapWords(text: string, room: number): string[] {
  const width = Math.max(20, room);
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

export function builtinCommands(): SlashCommand[] {
  const commands: SlashCommand[] = [
    {
      name: "help",
      description: "Show the commands and keys",
      run: async (ctx) => {
        const custom = await ctx.customCommands();
        const label = (c: SlashCommand) => `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`;
        // Descriptions line up in one column, as wide as the labels up to a cap: a label longer
        // than it (a plugin's long argument hint) is shown whole, its description on the next line.
        const width = Math.min(HELP_COLUMN_MAX, Math.max(...[...commands, ...custom].map((c) => label(c).length)));
        // A description longer than the room beside the labels wraps within its column: the
        // terminal's own wrap went on at the screen's left edge.
        const indent = " ".repeat(width + 3);
        const described = (c: SlashCommand) =>
          wrapWords(c.description, ctx.columns() - indent.length).join(`\n${indent}`);
        const line = (c: SlashCommand) =>
          label(c).length > width
            ? `  ${wrapWords(label(c), ctx.columns() - 4).join("\n    ")}\n${indent}${described(c)}`
            : `  ${label(c).padEnd(width)} ${described(c)}`;
        ctx.transcript.addNotice(
          [
            "Commands:",
            ...commands.map(line),
            ...(custom.length > 0 ? ["", "Your commands and skills:", ...custom.map(line)] : []),
            "",
            "Keys: Enter sends · Alt+Enter, Ctrl+J or \\ then Enter: new line · ↑/↓ history",
            "      Esc interrupts · Shift+Tab cycles the mode · Ctrl+C twice or Ctrl+D (empty prompt) exits",
            "      Ctrl+B sends a running command to the background · !command runs it · @path attaches a file",
          ].join("\n"),
        );
      },
    },
    { name: "exit", description: "End the session", run: (ctx) => ctx.exit() },
    {
      name: "clear",
      description: "Start a new conversation (the current one stays resumable)",
      // Read the settings again: rules the person allowed "always" since the start were saved to
      // the files, and the cleared conversation's in-memory copy of them goes with it.
      run: (ctx) => ctx.switchSession({ rereadSettings: true }),
    },
    {
      name: "compact",
      argumentHint: "[instructions]",
      description: "Summarise the conversation to free context",
      run: (ctx, args) => ctx.compact(args || undefined),
    },
    {
      name: "cost",
      description: "Tokens and cost of this session",
      run: (ctx) => {
        const engine = ctx.handle.engine;
        const usage = engine.usage;
        const cost = knownCost(engine);
        const lines = [
          `Session ${engine.sessionId} (${engine.modelLabel})`,
          `  input ${formatTokens(usage.input_tokens)} · cache read ${formatTokens(usage.cache_read_input_tokens ?? 0)} · cache write ${formatTokens(usage.cache_creation_input_tokens ?? 0)} · output ${formatTokens(usage.output_tokens)}`,
          `  cost ${cost === null ? "unknown (no price known for a model used)" : `$${cost.toFixed(4)}`}`,
        ];
        ctx.transcript.addNotice(lines.join("\n"));
      },
    },
    {
      name: "model",
      argumentHint: "[provider:model]",
      description: "Switch the model for the rest of this session",
      run: async (ctx, args) => {
        if (!args) {
          ctx.transcript.addNotice(`Model: ${ctx.handle.engine.modelLabel}. Switch with /model provider:model.`);
          return;
        }
        // In place, as the Agent SDK's set_model does: the same session and conversation, its
        // PreModelSwitch hooks asked first (they may refuse), its PostModelSwitch hooks told after.
        try {
          const { errors } = await ctx.handle.commands.setModel(args, "command");
          for (const error of errors) ctx.transcript.addNotice(error);
          ctx.transcript.addNotice(`Now using ${ctx.handle.engine.modelLabel}.`);
        } catch (error) {
          ctx.transcript.addNotice(`/model: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
    },
    {
      name: "resume",
      argumentHint: "[session-id]",
      description: "Continue an earlier session of this folder",
      run: async (ctx, args) => {
        const sessions = args ? [] : pastSessions(ctx);
        if (!args && sessions.length === 0) {
          // An empty picker only waits for Esc: say plainly there is nothing to continue.
          ctx.transcript.addNotice(`/resume: no earlier session in ${ctx.handle.engine.cwd} to resume`);
          return;
        }
        const id = args || (await ctx.pick("Resume which session?", sessions));
        if (!id) return;
        await ctx.switchSession({ resume: id, rereadSettings: true });
        const resumed = ctx.current().engine;
        ctx.transcript.addNotice(`Resumed session ${resumed.sessionId}:`);
        ctx.transcript.showResumed(resumed.messages, currentTaskList(resumed.getAppState()));
      },
    },
    permissionsCommand,
    mcpCommand,
    outputStyleCommand,
    pluginCommand,
    addDirCommand,
    ...sessionInfoCommands(),
    {
      name: "agents",
      description: "The agents the model can start with the Agent tool",
      run: (ctx) => {
        const agents = ctx.handle.agents;
        const hasTool = ctx.handle.engine.tools.some((t) => t.name === "Agent");
        ctx.transcript.addNotice(
          [
            hasTool ? "Agents (Agent tool):" : "Agents (the Agent tool is not in this session's pool):",
            ...agents.map((a) => `  ${a.agentType}: ${oneLine(a.whenToUse, 70)}`),
            "Define more in .warden/agents/*.md (project) or ~/.warden/agents/*.md (user).",
          ].join("\n"),
        );
      },
    },
    {
      name: "undo",
      argumentHint: "[N]",
      description: "Undo the last N file changes of this session (default 1)",
      run: (ctx, args) => {
        const count = args ? Number(args) : 1;
        if (!Number.isInteger(count) || count < 1) {
          ctx.transcript.addNotice("/undo takes a number of changes, at least 1.", "error");
          return;
        }
        const engine = ctx.handle.engine;
        const sessionDir = sessionArtifactsDir(engine.cwd, engine.sessionId);
        if (listFileChanges(sessionDir).length === 0) {
          ctx.transcript.addNotice("No file changes in this session to undo.");
          return;
        }
        try {
          const report = undoLastChanges(sessionDir, count);
          ctx.transcript.addNotice(
            [
              ...report.actions.map(
                (a) => `${a.action === "restored" ? "Restored" : "Deleted"} ${displayPath(a.path, engine.cwd)}`,
              ),
              ...(report.missing > 0 ? [`(${report.missing} fewer changes were recorded than asked for.)`] : []),
            ].join("\n"),
          );
        } catch (error) {
          if (error instanceof UndoRefusedError) ctx.transcript.addNotice(error.message, "error");
          else throw error;
        }
      },
    },
    {
      name: "init",
      description: "Write an AGENTS.md describing this project for future sessions",
      run: (ctx) => ctx.submitPrompt(INIT_PROMPT),
    },
  ];
  return commands;
}

function pastSessions(ctx: CommandContext): Array<{ label: string; value: string }> {
  return listSavedSessions(ctx.handle.engine.cwd)
    .filter((s) => s.sessionId !== ctx.handle.engine.sessionId)
    .map((s) => ({
      label: `${s.updatedAt.toISOString().slice(0, 16).replace("T", " ")}  ${s.title ?? "(no prompt)"}  ${s.sessionId.slice(0, 8)}`,
      value: s.sessionId,
    }));
}
