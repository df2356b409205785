// A real session for Bash tool tests: temp project and session folders, the real tool pool and
// the real single-call path (runToolUse). Only the ask handler is fixed: it allows every call, as
// a user who says yes would.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResultBlock } from "../../../src/messages/types.js";
import { runToolUse } from "../../../src/orchestration/run-tool-use.js";
import type { AppState } from "../../../src/tool/app-state.js";
import { createToolUseContext } from "../../../src/tool/context.js";
import { emptyPermissionContext } from "../../../src/tool/permission-types.js";
import type { CanUseTool, ToolUseContext } from "../../../src/tool/types.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { TaskOutputTool } from "../../../src/tools/task-output/tool.js";
import { TaskStopTool } from "../../../src/tools/task-stop/tool.js";

export const allowAll: CanUseTool = async (_tool, input) => ({ behavior: "allow", updatedInput: input });

export interface Session {
  project: string;
  sessionDir: string;
  context: ToolUseContext;
  run(name: string, input: Record<string, unknown>, onProgress?: (p: unknown) => void): Promise<ToolResultBlock>;
  runWith(
    context: ToolUseContext,
    name: string,
    input: Record<string, unknown>,
    onProgress?: (p: unknown) => void,
  ): Promise<ToolResultBlock>;
  cleanup(): Promise<void>;
}

let counter = 0;

export function createSession(appState: Partial<AppState> = {}): Session {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "warden-bash-")));
  const project = join(root, "project");
  const sessionDir = join(root, "session");
  mkdirSync(project);
  mkdirSync(sessionDir);
  const context = createToolUseContext({
    options: {
      tools: [BashTool, TaskOutputTool, TaskStopTool],
      model: "replay:test",
      cwd: project,
      sessionId: "test-session",
      sessionDir,
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: emptyPermissionContext(project), ...appState },
  });
  const runWith = async (
    ctx: ToolUseContext,
    name: string,
    input: Record<string, unknown>,
    onProgress?: (p: unknown) => void,
  ) => {
    counter += 1;
    const outcome = await runToolUse(
      { type: "tool_use", id: `toolu_${counter}`, name, input },
      ctx,
      allowAll,
      undefined,
      onProgress,
    );
    return outcome.result;
  };
  return {
    project,
    sessionDir,
    context,
    run: (name, input, onProgress) => runWith(context, name, input, onProgress),
    runWith,
    async cleanup() {
      await context.getAppState().backgroundTasks?.stopAll();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function text(result: ToolResultBlock): string {
  return typeof result.content === "string"
    ? result.content
    : result.content.map((b) => ("text" in b ? b.text : "")).join("\n");
}
