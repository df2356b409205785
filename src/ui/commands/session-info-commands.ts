// /context, /status and /export: what the session holds, where it stands, and the conversation
// written out as text for a person to keep or share.
import { existsSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { wardenVersion } from "../../config/version.js";
import type { ContextUsage } from "../../loop/context-usage.js";
import { type Message, type ToolUseBlock, toolResultText } from "../../messages/types.js";
import { formatTokens } from "../components/StatusLine.js";
import { displayPath, toolCallSummary } from "../transcript/tool-summary.js";
import type { SlashCommand } from "./slash-commands.js";

/** Width of /context's bars: the whole window. */
const BAR_CELLS = 30;
/** A tool result longer than this is cut in /export (the transcript on disk keeps it whole). */
const EXPORT_RESULT_MAX = 2_000;

export function sessionInfoCommands(): SlashCommand[] {
  return [
    {
      name: "context",
      description: "What fills the model's context window, by kind",
      run: async (ctx) => ctx.transcript.addNotice(formatContextUsage(await ctx.handle.engine.contextUsage())),
    },
    {
      name: "status",
      description: "Version, session, model, folder, mode and MCP servers",
      run: (ctx) => {
        const { engine, mcp } = ctx.handle;
        const servers = mcp.servers();
        const byState = new Map<string, number>();
        for (const server of servers) byState.set(server.state, (byState.get(server.state) ?? 0) + 1);
        const tasks = engine.getAppState().backgroundTasks?.list() ?? [];
        const running = tasks.filter((task) => task.status === "running").length;
        ctx.transcript.addNotice(
          [
            `Warden ${wardenVersion()}`,
            `  Session: ${engine.sessionId}`,
            `  Transcript: ${engine.transcriptPath}`,
            `  Model: ${engine.modelLabel}`,
            `  Folder: ${engine.cwd}`,
            `  Mode: ${engine.getAppState().toolPermissionContext.mode}`,
            `  MCP servers: ${
              servers.length === 0 ? "none" : [...byState].map(([state, count]) => `${count} ${state}`).join(", ")
            }`,
            `  Background tasks: ${tasks.length === 0 ? "none" : `${running} running, ${tasks.length - running} ended`}`,
          ].join("\n"),
        );
      },
    },
    {
      name: "export",
      argumentHint: "[file]",
      description: "Write the conversation to a text file",
      run: (ctx, args) => {
        const { engine } = ctx.handle;
        const name = args || freeName(engine.cwd, defaultExportName(engine.messages, new Date()));
        const path = isAbsolute(name) ? name : join(engine.cwd, name);
        const text = conversationText(engine.messages, (use) =>
          toolCallSummary(
            engine.tools.find((tool) => tool.name === use.name),
            use,
            engine.cwd,
          ),
        );
        try {
          writeFileSync(path, text);
        } catch (error) {
          ctx.transcript.addNotice(
            `/export: could not write ${path}: ${error instanceof Error ? error.message : String(error)}`,
            "error",
          );
          return;
        }
        ctx.transcript.addNotice(`Conversation written to ${displayPath(path, engine.cwd)}`);
      },
    },
  ];
}

/** /context's table: each kind with its tokens, its share of the window and a bar. */
export function formatContextUsage(usage: ContextUsage): string {
  const rows = usage.categories.filter((category) => category.tokens > 0 || category.kind === "used");
  const width = Math.max(...rows.map((row) => row.name.length));
  const cells = (tokens: number) => Math.round((tokens / usage.maxTokens) * BAR_CELLS);
  const lines = rows.map((row) => {
    const share = `${((row.tokens / usage.maxTokens) * 100).toFixed(1)}%`;
    const bar = (row.kind === "used" ? "█" : row.kind === "free" ? "·" : "░").repeat(cells(row.tokens));
    const note = row.kind === "deferred" ? "  (named only; loaded by ToolSearch)" : "";
    return `  ${row.name.padEnd(width)}  ${formatTokens(row.tokens).padStart(6)}  ${share.padStart(6)}  ${bar}${note}`;
  });
  return [
    `Context: ${formatTokens(usage.totalTokens)} of ${formatTokens(usage.maxTokens)} tokens (${usage.percentage}%) · ${usage.model}`,
    ...lines,
    ...(usage.isAutoCompactEnabled && usage.autoCompactThreshold !== undefined
      ? [`  Compaction starts at ${formatTokens(usage.autoCompactThreshold)} tokens.`]
      : []),
  ].join("\n");
}

/** `name`, or `name-2`, `name-3`... when the folder holds it already (an export never overwrites one unasked). */
function freeName(dir: string, name: string): string {
  const stem = name.replace(/\.txt$/, "");
  let candidate = name;
  for (let n = 2; existsSync(join(dir, candidate)); n++) candidate = `${stem}-${n}.txt`;
  return candidate;
}

/** `2026-12-01-fix-the-login-bug.txt`: the date and the first words of the first prompt. */
export function defaultExportName(messages: readonly Message[], now: Date): string {
  const first = messages.find((m) => m.role === "user" && m.content.some((b) => b.type === "text"));
  const words =
    first?.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join(" ")
      .toLowerCase()
      .replace(/<[^>]*>/g, " ")
      .replace(/[^a-z0-9]+/g, " ")
      .trim()
      .split(" ")
      .slice(0, 6)
      .join("-") ?? "";
  const date = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  return `${date}-${words || "conversation"}.txt`;
}

/**
 * The conversation as a person reads it: prompts, answers, each tool call as one line and its
 * result (cut when long). Reminders the session added for the model are left out.
 */
export function conversationText(messages: readonly Message[], summarize: (use: ToolUseBlock) => string): string {
  const out: string[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text") {
        if (message.role === "user" && block.text.trimStart().startsWith("<system-reminder>")) continue;
        out.push(message.role === "user" ? `> ${block.text.replace(/\n/g, "\n> ")}` : block.text);
      } else if (block.type === "tool_use") {
        out.push(`● ${summarize(block)}`);
      } else if (block.type === "tool_result") {
        const text = toolResultText(block.content);
        const shown = text.length > EXPORT_RESULT_MAX ? `${text.slice(0, EXPORT_RESULT_MAX)}\n[… cut]` : text;
        out.push(`  ⎿ ${block.is_error ? "Error: " : ""}${shown.replace(/\n/g, "\n    ")}`);
      }
    }
  }
  return `${out.join("\n\n")}\n`;
}
