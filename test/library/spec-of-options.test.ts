// The library's query() builds its session's spec from its options directly (no command line in
// between), checked by the same schema as every front end's: the SDK's option shapes land in the
// spec's fields, and a combination the schema refuses ends the query with that message.
import { describe, expect, it } from "vitest";
import { query } from "../../src/sdk/index.js";
import { specOfOptions } from "../../src/sdk/spec-of-options.js";
import type { McpSdkServerConfigWithInstance } from "../../src/sdk/types.js";

describe("query()'s options as a SessionSpec", () => {
  it("maps the SDK's options onto the spec's fields", () => {
    const inProcess = new Map<string, McpSdkServerConfigWithInstance>([
      ["inproc", { type: "sdk", name: "inproc" } as McpSdkServerConfigWithInstance],
    ]);
    const spec = specOfOptions(
      {
        cwd: "/work/project",
        model: "replay:script.jsonl",
        permissionMode: "acceptEdits",
        allowedTools: ["Read Write", "Bash(git log:*)"],
        additionalDirectories: ["docs", "/elsewhere"],
        maxThinkingTokens: 2000,
        canUseTool: async () => ({ behavior: "allow", updatedInput: {} }),
        env: { TOKEN: "x" },
        mcpServers: {
          external: { type: "stdio", command: "server" },
          inproc: { type: "sdk", name: "inproc" } as McpSdkServerConfigWithInstance,
        },
      },
      inProcess,
    );
    expect(spec).toMatchObject({
      print: true,
      inputFormat: "stream-json",
      outputFormat: "stream-json",
      cwd: "/work/project",
      model: "replay:script.jsonl",
      permissionMode: "acceptEdits",
      allowedTools: ["Read", "Write", "Bash(git log:*)"],
      addDirs: ["/work/project/docs", "/elsewhere"],
      thinking: { type: "enabled", budgetTokens: 2000 },
      permissionPromptTool: "stdio",
      settings: JSON.stringify({ env: { TOKEN: "x" } }),
      // The in-process server is served through the initialize request, not as a config.
      mcpConfig: [JSON.stringify({ mcpServers: { external: { type: "stdio", command: "server" } } })],
    });
  });

  it("ends the query with the schema's word on options that cannot work together", async () => {
    const q = query({ prompt: "hi", options: { cwd: "/tmp", forkSession: true } });
    await expect(q.next()).rejects.toThrow("invalid options: --fork-session needs --resume or --continue");
  });
});
