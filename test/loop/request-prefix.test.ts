import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RequestPrefixCache } from "../../src/loop/request-prefix.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { EchoTool } from "./helpers.js";

function contextWith(tools: AnyTool[]) {
  return createToolUseContext({
    options: { tools, model: "m", cwd: "/w", sessionId: "s", sessionDir: "/w/s", isNonInteractive: true },
    appState: { toolPermissionContext: emptyPermissionContext("/w") },
  });
}

const Other = buildTool({
  name: "Other",
  inputSchema: z.object({ n: z.number() }),
  async prompt() {
    return "Another tool.";
  },
  async call() {
    return { data: "x" };
  },
}) as AnyTool;

describe("request prefix cache", () => {
  it("renders once and returns the very same prefix while the pool is unchanged", async () => {
    let builds = 0;
    const cache = new RequestPrefixCache(async (split) => {
      builds++;
      return `tools: ${split.loaded.map((t) => t.name).join(",")}`;
    });
    const context = contextWith([EchoTool as AnyTool]);
    const first = await cache.prefixFor(context);
    const second = await cache.prefixFor(context);
    expect(second).toBe(first);
    expect(builds).toBe(1);
    expect(first.system).toBe("tools: Echo");
  });

  it("notices a pool changed in place (MCP tools arriving mid-prompt) and renders again", async () => {
    const cache = new RequestPrefixCache(async (split) => `tools: ${split.loaded.map((t) => t.name).join(",")}`);
    const pool: AnyTool[] = [EchoTool as AnyTool];
    const context = contextWith(pool);
    await cache.prefixFor(context);
    pool.push(Other);
    const after = await cache.prefixFor(context);
    expect(after.system).toBe("tools: Echo,Other");
    expect(after.tools.map((t) => t.name)).toEqual(["Echo", "Other"]);
    expect(after.tools[1]?.input_schema).toMatchObject({ properties: { n: { type: "number" } } });
  });
});
