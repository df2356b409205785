// Scaffolding for the planning tools' tests: a real project and session folder in a temp dir, a
// context as a session builds it (with its plan file), and calls that go through the real
// runToolUse path and the real permission engine, with an ask handler that records what it was
// asked and answers as the test says.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planFilePathIn } from "../../../src/config/paths.js";
import { toolResultText } from "../../../src/messages/types.js";
import { runToolUse, type ToolRunOutcome } from "../../../src/orchestration/run-tool-use.js";
import {
  type AskHandler,
  type AskRequest,
  type AskResponse,
  createCanUseTool,
  createHeadlessAskHandler,
} from "../../../src/permissions/engine/index.js";
import { rulesFromStrings } from "../../../src/permissions/rules/index.js";
import { createToolUseContext } from "../../../src/tool/context.js";
import type { PermissionMode, ToolPermissionContext } from "../../../src/tool/permission-types.js";
import type { AnyTool, ToolUseContext } from "../../../src/tool/types.js";
import type { UserDialog } from "../../../src/tool/user-dialog.js";
import { builtInTools } from "../../../src/tools/registry.js";

export interface Harness {
  root: string;
  project: string;
  sessionDir: string;
  planFile: string;
  context: ToolUseContext;
  /** Every question the permission engine put to the (scripted) person. */
  asked: AskRequest[];
  /** Runs one call through the permission engine and the tool. */
  call(tool: AnyTool, input: Record<string, unknown>): Promise<ToolRunOutcome & { text: string }>;
  cleanup(): void;
}

export interface HarnessOptions {
  mode?: PermissionMode;
  rules?: { allow?: string[]; deny?: string[]; ask?: string[] };
  /** What the person answers when asked; default: nobody can be asked (the CLI's headless handler). */
  answer?: (request: AskRequest) => AskResponse;
  nonInteractive?: boolean;
  userDialog?: UserDialog;
  agentId?: string;
  tools?: AnyTool[];
}

let callCount = 0;

export function makeHarness(options: HarnessOptions = {}): Harness {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "warden-planning-")));
  const project = join(root, "project");
  const sessionDir = join(root, "home", ".warden", "projects", "p", "session-1");
  mkdirSync(project, { recursive: true });
  mkdirSync(sessionDir, { recursive: true });
  const planFile = planFilePathIn(sessionDir);
  const mode = options.mode ?? "default";
  const permissionContext: ToolPermissionContext = {
    mode,
    workingDirectories: [project],
    rules: rulesFromStrings(options.rules ?? {}, "session", project, "test").rules,
    isBypassPermissionsModeAvailable: mode === "bypassPermissions",
    planFilePath: planFile,
  };
  const context = createToolUseContext({
    options: {
      // Both task-list families, so one harness can call either.
      tools: options.tools ?? [...new Set([...builtInTools(), ...builtInTools({ taskTools: "Tasks" })])],
      model: "test",
      cwd: project,
      sessionId: "session-1",
      sessionDir,
      isNonInteractive: options.nonInteractive ?? options.answer === undefined,
      userDialog: options.userDialog,
    },
    appState: { toolPermissionContext: permissionContext },
  });
  if (options.agentId) context.agentId = options.agentId;
  const asked: AskRequest[] = [];
  const headless = createHeadlessAskHandler();
  const askHandler: AskHandler = async (request) => {
    asked.push(request);
    return options.answer ? options.answer(request) : headless(request);
  };
  const canUseTool = createCanUseTool({ askHandler });
  return {
    root,
    project,
    sessionDir,
    planFile,
    context,
    asked,
    async call(tool, input) {
      callCount++;
      const outcome = await runToolUse(
        { type: "tool_use", id: `toolu_${callCount}`, name: tool.name, input },
        context,
        canUseTool,
        undefined,
      );
      return { ...outcome, text: toolResultText(outcome.result.content) };
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The parse failure a schema gives an input, as the model would read it; "" when it parses. */
export function schemaProblem(tool: AnyTool, input: unknown): string {
  const parsed = tool.inputSchema.safeParse(input);
  return parsed.success
    ? ""
    : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("\n");
}
