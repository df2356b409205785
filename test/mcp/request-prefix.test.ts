// A server may redefine a tool under the same name (tools/list_changed): the next request must
// carry the new schema, not the one cached for the old tool object.
import { describe, expect, it } from "vitest";
import { RequestPrefixCache } from "../../src/loop/request-prefix.js";
import { createMcpTool, type McpToolHost } from "../../src/mcp/mcp-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool } from "../../src/tool/types.js";

const host: McpToolHost = { name: "demo", callTool: async () => ({ content: [] }) };
const version = (properties: Record<string, object>): AnyTool =>
  createMcpTool(host, {
    name: "lookup",
    description: "Look it up.",
    inputSchema: { type: "object", properties },
    _meta: { "anthropic/alwaysLoad": true },
  });

describe("request prefix and changing MCP tools", () => {
  it("sends the redefined schema of a same-named tool", async () => {
    const pool = [version({ id: { type: "string" } })];
    const context = createToolUseContext({
      options: { tools: pool, model: "t", cwd: "/tmp", sessionId: "s", sessionDir: "/tmp", isNonInteractive: true },
      appState: { toolPermissionContext: emptyPermissionContext("/tmp") },
    });
    const cache = new RequestPrefixCache(async () => "system");
    const first = await cache.prefixFor(context);
    expect(first.tools[0]?.input_schema).toEqual({ type: "object", properties: { id: { type: "string" } } });
    pool.splice(0, 1, version({ id: { type: "string" }, verbose: { type: "boolean" } }));
    const second = await cache.prefixFor(context);
    expect(second.tools[0]?.input_schema).toEqual({
      type: "object",
      properties: { id: { type: "string" }, verbose: { type: "boolean" } },
    });
  });
});
