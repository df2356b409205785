// The package's public face: the runtime names "warden" exports. src/index.ts lists each name on
// purpose; this list holds them, so adding or removing a public name is a decision made here
// too, not a side effect of an internal module gaining an export.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as warden from "../../src/index.js";

const PUBLIC_NAMES = [
  "AbortError",
  "AskUserQuestionTool",
  "DenialTracker",
  "EditTool",
  "EnterPlanModeTool",
  "ExitPlanModeTool",
  "FileTaskStore",
  "GlobTool",
  "GrepTool",
  "HookRunner",
  "McpClientManager",
  "NotebookEditTool",
  "PERMISSION_MODES",
  "PermissionConfigError",
  "ProviderError",
  "ReadFileState",
  "ReadTool",
  "SessionEngine",
  "SettingsError",
  "TaskCreateTool",
  "TaskGetTool",
  "TaskListTool",
  "TaskUpdateTool",
  "TodoWriteTool",
  "ToolSearchTool",
  "TranscriptWriter",
  "UndoRefusedError",
  "UsageLedger",
  "WriteTool",
  "agentLoop",
  "analyzeCommand",
  "applyPermissionUpdate",
  "applyPermissionUpdates",
  "assembleToolPool",
  "buildPermissionContext",
  "buildSystemPrompt",
  "buildTool",
  "builtInTools",
  "checkBashCommandPermission",
  "connectMcpForSession",
  "costOfUsage",
  "createAnthropicProvider",
  "createAppStateStore",
  "createCanUseTool",
  "createHeadlessAskHandler",
  "createMcpTool",
  "createModelClassifier",
  "createOpenAIProvider",
  "createPermissionChecker",
  "createReplayProvider",
  "createSdkMcpServer",
  "createSession",
  "createToolUseContext",
  "createWardenMcpServer",
  "denyAskHandler",
  "describeReason",
  "emptyPermissionContext",
  "findToolByName",
  "formatRule",
  "formatZodError",
  "hasPermissionsToUseTool",
  "hooksFromSettings",
  "inspectWorkspaceTrust",
  "isPermissionMode",
  "isReadOnlyCommand",
  "isValidSessionId",
  "isWorkspaceTrusted",
  "latestSessionId",
  "listFileChanges",
  "loadMcpServerEntries",
  "loadMemoryFiles",
  "loadSession",
  "loadSessionPermissions",
  "loadSettings",
  "loadTranscriptFile",
  "mcpToolName",
  "modelInfoFor",
  "parseMcpToolName",
  "parseRule",
  "parseServerConfig",
  "persistPermissionUpdate",
  "projectTools",
  "query",
  "resolveProvider",
  "runPermissionPipeline",
  "servableTools",
  "serveStreamableHttp",
  "splitBashCommand",
  "textOf",
  "tool",
  "toolInputJSONSchema",
  "toolUsesOf",
  "trustWorkspace",
  "undoLastChanges",
  "untrustWorkspace",
  "userText",
  "withRetry",
  "wrapSystemReminder",
];

describe("the package's public face", () => {
  it("exports exactly the listed names", () => {
    expect(Object.keys(warden).sort()).toEqual(PUBLIC_NAMES);
  });

  it("stays a face a library user can read (at most about a hundred names)", () => {
    expect(PUBLIC_NAMES.length).toBeLessThanOrEqual(100);
  });

  it("names what it exports: no export * in src/index.ts", () => {
    const source = readFileSync(new URL("../../src/index.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/^export \*/m);
  });
});
