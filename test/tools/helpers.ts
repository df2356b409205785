// Test scaffolding for the file tools: a real temp project folder, a session folder beside it,
// and a context as a session would build it. Tools run through the real runToolUse path; the
// "user" answering permission prompts is this harness, which says yes unless the tool's own
// check denies.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { ToolResultBlock } from "../../src/messages/types.js";
import { toolResultText } from "../../src/messages/types.js";
import { runToolUse } from "../../src/orchestration/run-tool-use.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext, type PermissionRule } from "../../src/tool/permission-types.js";
import type { AnyTool, CanUseTool, ToolUseContext } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";

export interface TestProject {
  dir: string;
  sessionDir: string;
  context: ToolUseContext;
  cleanup(): Promise<void>;
}

export async function makeProject(denyRules: PermissionRule[] = []): Promise<TestProject> {
  // realpath: on some systems tmpdir is a symlink, and tools report resolved paths.
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "warden-files-")));
  const dir = path.join(root, "project");
  const sessionDir = path.join(root, "session");
  await import("node:fs/promises").then((fs) => Promise.all([fs.mkdir(dir), fs.mkdir(sessionDir)]));
  const permissionContext = emptyPermissionContext(dir);
  permissionContext.rules.deny.push(...denyRules);
  const context = createToolUseContext({
    options: {
      tools: builtInTools(),
      model: "replay:test",
      cwd: dir,
      sessionId: "test-session",
      sessionDir,
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: permissionContext },
  });
  return { dir, sessionDir, context, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The harness's answer to permission prompts: whatever the tool's own check does not deny. */
export const allowUnlessDenied: CanUseTool = async (tool, input, context) => {
  const result = await tool.checkPermissions(input, context);
  if (result.behavior === "deny") return result;
  return { behavior: "allow", updatedInput: input };
};

let nextId = 0;

export async function callTool(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
): Promise<ToolResultBlock> {
  nextId++;
  const outcome = await runToolUse(
    { type: "tool_use", id: `toolu_${nextId}`, name: tool.name, input },
    context,
    allowUnlessDenied,
    undefined,
  );
  return outcome.result;
}

export async function callText(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
): Promise<string> {
  return toolResultText((await callTool(tool, input, context)).content);
}

/** The error code validateInput gives for an input (after schema parsing), or "ok". */
export async function validationCode(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
): Promise<number | "ok"> {
  const parsed = tool.inputSchema.parse(input);
  const result = await tool.validateInput!(parsed, context);
  return result.result ? "ok" : result.errorCode;
}

export async function validationMessage(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
): Promise<string> {
  const parsed = tool.inputSchema.parse(input);
  const result = await tool.validateInput!(parsed, context);
  return result.result ? "" : result.message;
}
