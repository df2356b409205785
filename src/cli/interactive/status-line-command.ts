// The `statusLine` command of settings (Claude Code's custom status line): run with the session's
// state as JSON on stdin, in Claude Code's shape, and its first line of output shown under the
// prompt. Each run is bounded; a command that fails or prints nothing shows nothing. A project's
// statusLine is one of its widening settings, so it runs only once the folder is trusted.
import type { StatusLineSettings } from "../../config/settings-schema.js";
import { wardenVersion } from "../../config/version.js";
import { runHookCommand } from "../../hooks/run-command.js";
import type { SessionEngine } from "../../loop/session.js";

/** A status line command that takes longer than this shows nothing for that refresh. */
export const STATUS_LINE_TIMEOUT_MS = 5_000;
/** What the UI shows of the output at most. */
const MAX_LINE_CHARS = 500;

/** The JSON a status line command reads on stdin (the fields of Claude Code's that Warden knows). */
export function statusLineInput(
  engine: SessionEngine,
  startedAt: number,
  outputStyle = "default",
): Record<string, unknown> {
  const usage = engine.usage;
  const input = usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  const colon = engine.modelLabel.indexOf(":");
  const model = colon >= 0 ? engine.modelLabel.slice(colon + 1) : engine.modelLabel;
  const state = engine.getAppState();
  return {
    hook_event_name: "Status",
    session_id: engine.sessionId,
    transcript_path: engine.transcriptPath,
    cwd: engine.cwd,
    model: { id: model, display_name: engine.modelLabel },
    workspace: { current_dir: state.bashCwd ?? engine.cwd, project_dir: engine.cwd },
    version: wardenVersion(),
    output_style: { name: outputStyle },
    permission_mode: state.toolPermissionContext.mode,
    cost: { total_cost_usd: engine.totalCostUSD ?? 0, total_duration_ms: Date.now() - startedAt },
    context_window: {
      total_input_tokens: input,
      total_output_tokens: usage.output_tokens,
      context_window_size: engine.modelInfo.contextWindow,
    },
  };
}

/** Runs the command once: its first line of output, or undefined when it failed or said nothing. */
export async function renderStatusLine(
  settings: StatusLineSettings,
  input: Record<string, unknown>,
  cwd: string,
  columns?: number,
): Promise<string | undefined> {
  const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: cwd, WARDEN_PROJECT_DIR: cwd };
  if (columns !== undefined) env.COLUMNS = String(columns);
  const result = await runHookCommand(settings.command, input, { cwd, timeoutMs: STATUS_LINE_TIMEOUT_MS, env });
  if (result.timedOut || result.spawnError || result.exitCode !== 0) return undefined;
  const line = result.stdout.split("\n")[0]?.trimEnd() ?? "";
  return line ? line.slice(0, MAX_LINE_CHARS) : undefined;
}
