// Elicitation and ElicitationResult hooks (real scripts in the user's settings) around a real MCP
// server's questions (asking-server.ts over stdio): an Elicitation hook answers the form itself,
// so the person (the onElicitation callback) is never asked and the server gets the hook's answer;
// the link question reaches the person, and an ElicitationResult hook replaces their answer.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { query, type SDKMessage, type SdkElicitationRequest } from "../../src/sdk/index.js";
import { writeScript } from "../loop/helpers.js";
import { stdioServerConfig } from "./fixtures.js";

let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "warden-elicit-hooks-home-"));
  process.env.WARDEN_HOME = home;
  process.env.WARDEN_TOOL_SEARCH = "never";
});

function resultOf(messages: SDKMessage[], id: string): unknown {
  for (const message of messages) {
    if (message.type !== "user" || !Array.isArray(message.message?.content)) continue;
    for (const block of message.message.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type !== "tool_result" || block.tool_use_id !== id) continue;
      const parts = block.content as Array<{ text?: string }>;
      return JSON.parse(typeof block.content === "string" ? block.content : parts.map((p) => p.text ?? "").join(""));
    }
  }
  throw new Error(`no result for ${id}`);
}

function lines(path: string): Array<Record<string, unknown>> {
  return existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];
}

describe("Elicitation hooks", () => {
  it("answer a form before anybody is asked, and replace the answer the person gave", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-elicit-hooks-"));
    const log = join(cwd, "hooks.jsonl");
    const pre = join(cwd, "pre.sh");
    // Forms are filled in by the hook; links are left to the person.
    writeFileSync(
      pre,
      `#!/usr/bin/env bash
input=$(cat); printf '%s\\n' "$input" >> '${log}'
case "$input" in *'"mode":"url"'*) exit 0 ;; esac
echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"email":"hook@example.com","age":33,"topics":["news"]}}}'
`,
    );
    const post = join(cwd, "post.sh");
    writeFileSync(
      post,
      `#!/usr/bin/env bash
input=$(cat); printf '%s\\n' "$input" >> '${log}'
case "$input" in *'"mode":"url"'*) echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"cancel"}}' ;; esac
`,
    );
    chmodSync(pre, 0o755);
    chmodSync(post, 0o755);
    writeFileSync(
      join(home, "settings.json"),
      JSON.stringify({
        hooks: {
          Elicitation: [{ matcher: "asking", hooks: [{ type: "command", command: pre }] }],
          ElicitationResult: [{ matcher: "asking", hooks: [{ type: "command", command: post }] }],
        },
      }),
    );
    const script = writeScript(cwd, [
      { content: [{ type: "tool_use", id: "e1", name: "mcp__asking__sign_up", input: {} }] },
      { content: [{ type: "tool_use", id: "e2", name: "mcp__asking__connect_account", input: {} }] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const asked: SdkElicitationRequest[] = [];
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt: "sign me up",
      options: {
        cwd,
        model: `replay:${script}`,
        mcpServers: { asking: stdioServerConfig("asking-server.ts") },
        allowedTools: ["mcp__asking"],
        onElicitation: async (request) => {
          asked.push(request);
          return { action: "accept", content: {} };
        },
      },
    })) {
      messages.push(message);
    }
    // The person saw only the link question.
    expect(asked.map((r) => r.mode)).toEqual(["url"]);
    expect(resultOf(messages, "e1")).toEqual({
      action: "accept",
      content: { email: "hook@example.com", age: 33, topics: ["news"], plan: "free", newsletter: true },
    });
    expect(resultOf(messages, "e2")).toEqual({ action: "cancel" });
    const seen = lines(log).map((e) => [e.hook_event_name, e.mcp_server_name, e.mode, e.action]);
    expect(seen).toEqual([
      ["Elicitation", "asking", "form", undefined],
      ["ElicitationResult", "asking", "form", "accept"],
      ["Elicitation", "asking", "url", undefined],
      ["ElicitationResult", "asking", "url", "accept"],
    ]);
    const first = lines(log)[0] as { message?: string; requested_schema?: { properties?: object } };
    expect(first.message).toBe("Create your account");
    expect(Object.keys(first.requested_schema?.properties ?? {})).toContain("email");
  });
});
