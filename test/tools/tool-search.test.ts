import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import {
  isDeferredTool,
  loadedDeferredToolNames,
  renderDeferredToolsList,
  splitDeferredTools,
} from "../../src/tool/deferred.js";
import { loadedToolNamesFromMessages } from "../../src/tool/loaded-tools-record.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";

import { resolveToolSearchMode } from "../../src/tool/tool-search-mode.js";

import type { AnyTool } from "../../src/tool/types.js";
import { ToolSearchTool } from "../../src/tools/tool-search/tool.js";

function fakeTool(name: string, extra: Partial<AnyTool> = {}): AnyTool {
  return buildTool({
    name,
    inputSchema: z.object({ text: z.string() }),
    prompt: async () => `${name} does its job.`,
    call: async () => ({ data: "ok" }),
    ...extra,
  });
}

const read = fakeTool("Read");
const notebook = fakeTool("NotebookEdit", { shouldDefer: true, searchHint: "jupyter cells" });
const mcpSend = fakeTool("mcp__slack__send_message", {
  mcpInfo: { serverName: "slack", toolName: "send_message" },
  staticDescription: "Post a message to a Slack channel.",
  inputJSONSchema: { type: "object", properties: { channel: { type: "string" }, text: { type: "string" } } },
});
const mcpPinned = fakeTool("mcp__slack__whoami", {
  mcpInfo: { serverName: "slack", toolName: "whoami" },
  alwaysLoad: true,
});
const pool = [read, ToolSearchTool, notebook, mcpSend, mcpPinned];

describe("isDeferredTool", () => {
  it.each([
    ["a core tool", read, false],
    ["ToolSearch itself", ToolSearchTool, false],
    ["a shouldDefer tool", notebook, true],
    ["an MCP tool", mcpSend, true],
    ["an MCP tool with alwaysLoad", mcpPinned, false],
  ])("%s", (_label, tool, expected) => {
    expect(isDeferredTool(tool)).toBe(expected);
  });
});

describe("splitDeferredTools", () => {
  const names = (tools: AnyTool[]) => tools.map((t) => t.name);

  it("defer mode: sends core tools and ToolSearch, defers the rest until loaded", () => {
    const first = splitDeferredTools(pool, new Set(), { mode: "defer" });
    expect(names(first.loaded)).toEqual(["Read", "ToolSearch", "mcp__slack__whoami"]);
    expect(names(first.deferred)).toEqual(["NotebookEdit", "mcp__slack__send_message"]);
    const later = splitDeferredTools(pool, new Set(["mcp__slack__send_message"]), { mode: "defer" });
    expect(names(later.loaded)).toEqual(["Read", "ToolSearch", "mcp__slack__send_message", "mcp__slack__whoami"]);
  });

  it("never mode: sends every schema and drops ToolSearch", () => {
    const split = splitDeferredTools(pool, new Set(), { mode: "never" });
    expect(split.deferred).toEqual([]);
    expect(names(split.loaded)).not.toContain("ToolSearch");
    expect(split.loaded).toHaveLength(4);
  });

  it("drops ToolSearch when nothing in the pool can be deferred", () => {
    expect(names(splitDeferredTools([read, ToolSearchTool], new Set(), { mode: "defer" }).loaded)).toEqual(["Read"]);
  });

  it("auto mode: defers only when deferrable schemas pass 10% of the context window", () => {
    const small = splitDeferredTools(pool, new Set(), { mode: "auto", contextWindowTokens: 200_000 });
    expect(small.deferred).toEqual([]);
    const tiny = splitDeferredTools(pool, new Set(), { mode: "auto", contextWindowTokens: 100 });
    expect(names(tiny.deferred)).toEqual(["NotebookEdit", "mcp__slack__send_message"]);
  });

  it("reads the mode from WARDEN_TOOL_SEARCH before settings, ignoring unknown values", () => {
    expect(resolveToolSearchMode("never", { WARDEN_TOOL_SEARCH: "auto" })).toBe("auto");
    expect(resolveToolSearchMode("never", { WARDEN_TOOL_SEARCH: "bogus" })).toBe("never");
    expect(resolveToolSearchMode(undefined, {})).toBe("defer");
    expect(resolveToolSearchMode("sometimes", {})).toBe("defer");
  });
});

describe("renderDeferredToolsList", () => {
  it("names deferred tools (MCP ones grouped by server) with their hints", () => {
    const text = renderDeferredToolsList([mcpSend, notebook]);
    expect(text).toContain("NotebookEdit (jupyter cells)");
    expect(text).toContain("mcp__slack__: send_message");
    expect(text).toContain("ToolSearch");
  });
  it("groups by the model-facing name even when it differs from the server's tool name", () => {
    const renamed = fakeTool("mcp__slack__post_message_v2", {
      mcpInfo: { serverName: "slack", toolName: "post.message/v2" },
    });
    expect(renderDeferredToolsList([renamed])).toContain("mcp__slack__: post_message_v2");
  });
  it("is empty when nothing is deferred", () => {
    expect(renderDeferredToolsList([])).toBe("");
  });
});

describe("ToolSearch tool", () => {
  function context() {
    return createToolUseContext({
      options: { tools: pool, model: "test", cwd: "/tmp", sessionId: "s", sessionDir: "/tmp", isNonInteractive: true },
      appState: { toolPermissionContext: emptyPermissionContext("/tmp") },
    });
  }

  it("returns the found tools' schemas and records them as loaded, once", async () => {
    const ctx = context();
    const input = ToolSearchTool.inputSchema.parse({ query: "select:mcp__slack__send_message" });
    const out = await ToolSearchTool.call(input, ctx, async () => ({ behavior: "allow" }), undefined);
    const text = ToolSearchTool.mapToolResult(out.data, "t1").content as string;
    expect(text).toContain('"name":"mcp__slack__send_message"');
    expect(text).toContain('"channel":{"type":"string"}');
    expect(text).toContain("Post a message to a Slack channel.");
    await ToolSearchTool.call(input, ctx, async () => ({ behavior: "allow" }), undefined);
    expect(ctx.getAppState().loadedDeferredTools).toEqual(["mcp__slack__send_message"]);
    const split = splitDeferredTools(pool, loadedDeferredToolNames(ctx.getAppState()), { mode: "defer" });
    expect(split.deferred.map((t) => t.name)).toEqual(["NotebookEdit"]);
  });

  it("searches built-in deferred tools by their prompt and hint, not core tools", async () => {
    const ctx = context();
    const out = await ToolSearchTool.call(
      ToolSearchTool.inputSchema.parse({ query: "jupyter" }),
      ctx,
      async () => ({ behavior: "allow" }),
      undefined,
    );
    expect(out.data.found.map((t) => t.name)).toEqual(["NotebookEdit"]);
    const none = await ToolSearchTool.call(
      ToolSearchTool.inputSchema.parse({ query: "Read" }),
      ctx,
      async () => ({ behavior: "allow" }),
      undefined,
    );
    expect(none.data.found).toEqual([]);
    expect(ToolSearchTool.mapToolResult(none.data, "t").content).toContain("No deferred tool matches");
    expect(ctx.getAppState().loadedDeferredTools).toEqual(["NotebookEdit"]);
  });

  it("says a select: name that is not deferred is already available, and one that does not exist is not found", async () => {
    const ctx = context();
    const out = await ToolSearchTool.call(
      ToolSearchTool.inputSchema.parse({ query: "select:Read,Nope" }),
      ctx,
      async () => ({ behavior: "allow" }),
      undefined,
    );
    const text = ToolSearchTool.mapToolResult(out.data, "t").content as string;
    expect(text).toContain("Already available, call directly: Read.");
    expect(text).toContain("Not found: Nope.");
    expect(ctx.getAppState().loadedDeferredTools).toBeUndefined();
  });

  it("rejects a call without a query", () => {
    expect(ToolSearchTool.inputSchema.safeParse({ max_results: 3 }).success).toBe(false);
  });
});

describe("loadedToolNamesFromMessages", () => {
  it("reads back the tools a conversation loaded, ignoring failed searches and other tools' results", async () => {
    const ctx = createToolUseContext({
      options: { tools: pool, model: "test", cwd: "/tmp", sessionId: "s", sessionDir: "/tmp", isNonInteractive: true },
      appState: { toolPermissionContext: emptyPermissionContext("/tmp") },
    });
    const found = await ToolSearchTool.call(
      ToolSearchTool.inputSchema.parse({ query: "select:mcp__slack__send_message,NotebookEdit" }),
      ctx,
      async () => ({ behavior: "allow" }),
      undefined,
    );
    const messages = [
      { role: "assistant" as const, content: [{ type: "tool_use" as const, id: "a", name: "ToolSearch", input: {} }] },
      { role: "user" as const, content: [ToolSearchTool.mapToolResult(found.data, "a")] },
      { role: "assistant" as const, content: [{ type: "tool_use" as const, id: "b", name: "Read", input: {} }] },
      {
        role: "user" as const,
        content: [{ type: "tool_result" as const, tool_use_id: "b", content: '<function>{"name":"Fake"}</function>' }],
      },
      { role: "assistant" as const, content: [{ type: "tool_use" as const, id: "c", name: "ToolSearch", input: {} }] },
      {
        role: "user" as const,
        content: [
          {
            type: "tool_result" as const,
            tool_use_id: "c",
            content: '<function>{"name":"Errored"}</function>',
            is_error: true,
          },
        ],
      },
    ];
    expect(loadedToolNamesFromMessages(messages)).toEqual(["mcp__slack__send_message", "NotebookEdit"]);
  });
});
