// TeammateIdle: a real hook script hears when an in-process teammate ends its turn and would go
// idle (teammate_name, team_name); its exit code 2 keeps the teammate working with the hook's
// stderr as feedback, and the lead hears the idle notice only once the hook lets it go.
import { chmodSync, existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import type { QueryEvent } from "../../src/loop/events.js";
import { createSession } from "../../src/loop/session.js";
import type { AssistantContentBlock, Message } from "../../src/messages/types.js";
import type { ModelRequest, Provider } from "../../src/providers/types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { allowAll, tempDir } from "../loop/helpers.js";

type Answer = (request: ModelRequest) => AssistantContentBlock[];

function scriptedProvider(answers: Record<string, Answer>): { provider: Provider; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    provider: {
      name: "scripted",
      async *stream(request) {
        requests.push({ ...request, messages: structuredClone(request.messages) });
        const answer = answers[request.agent?.name ?? "lead"];
        if (!answer) throw new Error(`no answers for ${request.agent?.name}`);
        const blocks = answer(request);
        for (const block of blocks) yield { type: "block", block };
        yield { type: "stop", stopReason: blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn" };
      },
    },
  };
}

function userTexts(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role !== "user") continue;
    if (typeof message.content === "string") parts.push(message.content);
    else
      for (const block of message.content) {
        if (block.type === "text") parts.push(block.text);
        if (block.type === "tool_result")
          parts.push(typeof block.content === "string" ? block.content : JSON.stringify(block.content));
      }
  }
  return parts.join("\n");
}

const text = (value: string): AssistantContentBlock => ({ type: "text", text: value });
let ids = 0;
const call = (name: string, input: Record<string, unknown>): AssistantContentBlock => ({
  type: "tool_use",
  id: `toolu_idle_${++ids}`,
  name,
  input,
});
const turnOf = (request: ModelRequest) => request.messages.filter((m) => m.role === "assistant").length;

beforeEach(() => {
  vi.stubEnv("WARDEN_HOME", realpathSync(tempDir("warden-idle-home-")));
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("TeammateIdle", () => {
  it("keeps a teammate working with the hook's feedback, then lets it go idle", async () => {
    const cwd = realpathSync(tempDir("warden-idle-"));
    const log = join(cwd, "idle.jsonl");
    const marker = join(cwd, "sent-back-once");
    const hook = join(cwd, "idle.sh");
    writeFileSync(
      hook,
      `#!/usr/bin/env bash
(cat; echo) >> '${log}'
if [ ! -e '${marker}' ]; then touch '${marker}'; echo "run the tests before stopping" >&2; exit 2; fi
`,
    );
    chmodSync(hook, 0o755);
    const hooks = new HookRunner({
      config: { TeammateIdle: [{ hooks: [{ type: "command", command: hook }] }] },
      cwd,
      sessionId: "s-idle",
    });
    const { provider, requests } = scriptedProvider({
      lead: (request) => {
        const seen = userTexts(request.messages);
        if (turnOf(request) === 0) return [call("TeamCreate", { team_name: "crew" })];
        if (turnOf(request) === 1)
          return [call("Agent", { team_name: "crew", name: "alice", description: "tester", prompt: "Check it." })];
        return [text(/teammate_id="alice">\n\{"type":"idle_notification"/.test(seen) ? "Team done." : "Waiting.")];
      },
      alice: (request) =>
        userTexts(request.messages).includes(
          "A TeammateIdle hook asked you to keep working: run the tests before stopping",
        )
          ? [text("tests pass")]
          : [text("looks fine")],
    });
    const s = createSession({
      provider,
      model: "scripted",
      tools: builtInTools({ teams: true }),
      canUseTool: allowAll,
      cwd,
      transcript: true,
      loadMemory: false,
      appState: { hooks },
    });
    const events: QueryEvent[] = [];
    for await (const event of s.submitMessage("Check it with a team.")) events.push(event);
    const leadSaw = userTexts(requests.filter((r) => !r.agent).at(-1)?.messages ?? []);
    expect(leadSaw).toMatch(/"type":"idle_notification","idle_reason":"available","summary":"tests pass"/);
    expect(leadSaw).not.toContain("looks fine");
    const inputs = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inputs).toHaveLength(2);
    for (const input of inputs)
      expect(input).toMatchObject({ hook_event_name: "TeammateIdle", teammate_name: "alice", team_name: "crew" });
    expect(existsSync(marker)).toBe(true);
    s.close();
  }, 60_000);
});
