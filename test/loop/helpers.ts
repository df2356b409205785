// Shared set-up for loop tests: a temp project dir, replay scripts written into it, a session over
// the real replay provider, and a recorder of what each model request carried.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { QueryEvent, TerminalEvent } from "../../src/loop/events.js";
import { createSession, type SessionEngine, type SessionEngineOptions } from "../../src/loop/session.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import type { ModelRequest, Provider } from "../../src/providers/types.js";
import { buildTool } from "../../src/tool/build-tool.js";
import type { AnyTool, CanUseTool } from "../../src/tool/types.js";

export function tempDir(prefix = "warden-loop-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a replay script (one object per model turn) and returns its path. */
export function writeScript(dir: string, turns: object[], name = "script.jsonl"): string {
  const path = join(dir, name);
  writeFileSync(path, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return path;
}

export const allowAll: CanUseTool = async () => ({ behavior: "allow" });

/** Keeps a deep copy of every request a provider receives. */
export function recording(provider: Provider): { provider: Provider; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    provider: {
      name: provider.name,
      stream(request) {
        requests.push({ ...request, messages: structuredClone(request.messages) });
        return provider.stream(request);
      },
    },
  };
}

export const EchoTool = buildTool({
  name: "Echo",
  inputSchema: z.object({ text: z.string() }),
  async prompt() {
    return "Returns the text it is given.";
  },
  isReadOnly: () => true,
  async call({ text }) {
    return { data: `echo: ${text}` };
  },
});

export const ThrowTool = buildTool({
  name: "Throw",
  inputSchema: z.object({}),
  async prompt() {
    return "Always fails.";
  },
  isReadOnly: () => true,
  async call() {
    throw new Error("disk on fire");
  },
});

export function sessionFor(
  cwd: string,
  turns: object[],
  extra: Partial<SessionEngineOptions> = {},
): { session: SessionEngine; requests: ModelRequest[] } {
  const script = writeScript(cwd, turns);
  const { provider, requests } = recording(createReplayProvider(script, { cwd }));
  const session = createSession({
    provider,
    model: "scripted",
    tools: [EchoTool, ThrowTool] as AnyTool[],
    canUseTool: allowAll,
    cwd,
    transcript: false,
    loadMemory: false,
    ...extra,
  });
  return { session, requests };
}

export async function collect(
  events: AsyncGenerator<QueryEvent, TerminalEvent>,
): Promise<{ events: QueryEvent[]; terminal: TerminalEvent }> {
  const all: QueryEvent[] = [];
  while (true) {
    const step = await events.next();
    if (step.done) return { events: all, terminal: step.value };
    all.push(step.value);
  }
}

export function toolUse(id: string, name: string, input: object) {
  return { type: "tool_use", id, name, input };
}

export function text(t: string) {
  return { type: "text", text: t };
}
