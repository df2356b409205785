// The engine asks tools for their traits instead of keeping lists of tool names: which path rules
// govern a file tool (fileAccess) and which tools auto mode allows without its classifier
// (autoModeSafe). These tests run the real built-in tools and the real MCP resource tools, so a
// tool that loses its trait, or a new file tool that forgets one, fails here.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { McpClientManager } from "../../src/mcp/manager.js";
import type { AutoModeClassifier } from "../../src/permissions/classifier/index.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import { ruleNamesFor } from "../../src/permissions/filesystem/index.js";
import { hasPermissionsToUseTool } from "../../src/permissions/pipeline/index.js";
import { rulesFromStrings } from "../../src/permissions/rules/index.js";
import type { PermissionMode, ToolPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool, ToolInput } from "../../src/tool/types.js";
import { createListMcpResourcesTool } from "../../src/tools/list-mcp-resources/tool.js";
import { createReadMcpResourceTool } from "../../src/tools/read-mcp-resource/tool.js";
import { builtInTools } from "../../src/tools/registry.js";
import { isolateEnvironment, tempDir, toolContext } from "./helpers.js";

const env = isolateEnvironment();
const project = env.project;
const secret = join(project, "secret");
const outside = tempDir("warden-traits-outside-");

beforeAll(() => mkdirSync(secret, { recursive: true }));

/** Every tool a session can hold besides MCP servers' own: the built-ins and the resource tools. */
function fullPool(): AnyTool[] {
  const source = new McpClientManager([], { cwd: project });
  return [...builtInTools(), createListMcpResourcesTool(source), createReadMcpResourceTool(source)];
}

/** A call of each file tool on a path inside ./secret. A new file tool needs a line here. */
const secretCalls: Record<string, ToolInput> = {
  Read: { file_path: join(secret, "a.txt") },
  Glob: { pattern: "*.txt", path: secret },
  Grep: { pattern: "x", path: secret },
  Write: { file_path: join(secret, "a.txt"), content: "x" },
  Edit: { file_path: join(secret, "a.txt"), old_string: "a", new_string: "b" },
  NotebookEdit: { notebook_path: join(secret, "n.ipynb"), new_source: "x" },
};

function context(mode: PermissionMode, deny: string[] = []): ToolPermissionContext {
  return {
    mode,
    workingDirectories: [project],
    rules: rulesFromStrings({ deny }, "session", project, "test").rules,
    isBypassPermissionsModeAvailable: false,
  };
}

async function decide(tool: AnyTool, input: ToolInput, permissionContext: ToolPermissionContext, pool: AnyTool[]) {
  const parsed = tool.inputSchema.parse(input) as ToolInput;
  return hasPermissionsToUseTool(tool, parsed, toolContext(project, permissionContext, pool), permissionContext);
}

describe("fileAccess: path rules follow the kind of access, not the tool's name", () => {
  const pool = fullPool();
  const fileTools = pool.filter((tool) => tool.fileAccess !== undefined);

  it("every tool that names a path declares how it touches it, and each has a sample call", () => {
    const withPath = pool.filter((tool) => tool.getPath !== undefined).map((tool) => tool.name);
    expect(withPath.filter((name) => pool.find((t) => t.name === name)?.fileAccess === undefined)).toEqual([]);
    expect(fileTools.map((tool) => tool.name).sort()).toEqual(Object.keys(secretCalls).sort());
    expect(fileTools.filter((t) => t.fileAccess === "read").map((t) => t.name)).toEqual(["Read", "Glob", "Grep"]);
    expect(fileTools.filter((t) => t.fileAccess === "write").map((t) => t.name)).toEqual([
      "Write",
      "Edit",
      "NotebookEdit",
    ]);
  });

  it("a deny rule named after any tool of a kind stops every tool of that kind, and only that kind", async () => {
    for (const tool of fileTools) {
      const input = secretCalls[tool.name]!;
      for (const other of fileTools) {
        const decision = await decide(tool, input, context("default", [`${other.name}(./secret/**)`]), pool);
        const expected = other.fileAccess === tool.fileAccess ? "deny" : "not denied";
        expect(decision.behavior === "deny" ? "deny" : "not denied", `${other.name} rule, ${tool.name} call`).toBe(
          expected,
        );
      }
    }
  });

  it("Read(...) and Edit(...) hold even in a session whose pool lacks Read and Edit", async () => {
    const pool = fullPool().filter((tool) => tool.name !== "Read" && tool.name !== "Edit");
    const grep = pool.find((tool) => tool.name === "Grep")!;
    const write = pool.find((tool) => tool.name === "Write")!;
    expect(await decide(grep, secretCalls.Grep!, context("default", ["Read(./secret/**)"]), pool)).toMatchObject({
      behavior: "deny",
    });
    expect(await decide(write, secretCalls.Write!, context("default", ["Edit(./secret/**)"]), pool)).toMatchObject({
      behavior: "deny",
    });
  });

  it("a tool's former names (aliases) stay in its family", () => {
    const renamed = { ...fullPool().find((tool) => tool.name === "Grep")!, name: "Search", aliases: ["Grep"] };
    expect(ruleNamesFor("read", "Read", [renamed as AnyTool])).toEqual(["Read", "Search", "Grep"]);
  });
});

describe("autoModeSafe: auto mode's no-classifier list is the tools' own", () => {
  const pool = fullPool();
  const safe = pool.filter((tool) => tool.autoModeSafe);

  it("holds exactly the tools that only look or keep the session's own notes", () => {
    expect(safe.map((tool) => tool.name).sort()).toEqual(
      [
        // Listing the session's own schedule, and waiting.
        "CronList",
        "Sleep",
        "EnterPlanMode",
        "Glob",
        "Grep",
        "ListMcpResources",
        "Read",
        "ReadMcpResource",
        "TaskOutput",
        "TodoWrite",
        "ToolSearch",
      ].sort(),
    );
    // Nothing that writes may be on it, whatever its input.
    for (const tool of safe) expect(tool.isReadOnly({}), tool.name).toBe(true);
  });

  it("allows each of them in auto mode without calling the classifier", async () => {
    const seen: string[] = [];
    const classifier: AutoModeClassifier = {
      name: "watching",
      async classify(request) {
        seen.push(request.toolName);
        return { block: true, reason: "should not have been asked" };
      },
    };
    const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler(), classifier });
    const calls: Array<[string, ToolInput]> = [
      ["Read", { file_path: join(outside, "notes.txt") }],
      ["Grep", { pattern: "x", path: outside }],
      ["ReadMcpResource", { server: "docs", uri: "file:///readme" }],
      ["ListMcpResources", {}],
    ];
    const toolUseContext = toolContext(project, context("auto"), pool);
    for (const [name, input] of calls) {
      const tool = pool.find((t) => t.name === name)!;
      const decision = await canUseTool(
        tool,
        tool.inputSchema.parse(input) as ToolInput,
        toolUseContext,
        undefined,
        name,
      );
      expect(decision.behavior, name).toBe("allow");
    }
    expect(seen).toEqual([]);
  });
});
