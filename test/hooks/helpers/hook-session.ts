// What the hook-event tests share: a hook script that records its stdin, a replay script on disk,
// and a session on the real loop with a HookRunner for a given config.
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HooksConfig } from "../../../src/config/settings-schema.js";
import { HookRunner } from "../../../src/hooks/hook-runner.js";
import type { QueryEvent } from "../../../src/loop/events.js";
import { createSession } from "../../../src/loop/session.js";
import { createReplayProvider } from "../../../src/providers/replay.js";
import type { CanUseTool } from "../../../src/tool/types.js";
import { builtInTools } from "../../../src/tools/registry.js";

export const allowAll: CanUseTool = async () => ({ behavior: "allow" });

export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * A hook that appends its stdin (one JSON line) to `<name>.log` and prints `answer`; returns the
 * command and a reader of the inputs it got.
 */
export function recordingHook(dir: string, name: string, answer = "") {
  const log = join(dir, `${name}.log`);
  const path = join(dir, `${name}.sh`);
  const print = answer ? `printf '%s\\n' '${answer}'` : "true";
  writeFileSync(path, `#!/usr/bin/env bash\ncat >> '${log}'\n${print}\n`);
  chmodSync(path, 0o755);
  const inputs = (): Array<Record<string, unknown>> =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  return { command: { type: "command" as const, command: path }, inputs };
}

export function replayScript(cwd: string, lines: object[]): string {
  const path = join(cwd, "script.jsonl");
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}

export const text = (value: string) => ({ type: "text", text: value });
export const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

export function hookedSession(cwd: string, lines: object[], config: HooksConfig, canUseTool: CanUseTool = allowAll) {
  const hooks = new HookRunner({ config, cwd, sessionId: "s-hooks" });
  const s = createSession({
    provider: createReplayProvider(replayScript(cwd, lines), { cwd }),
    model: "scripted",
    tools: builtInTools(),
    canUseTool,
    cwd,
    transcript: false,
    loadMemory: false,
    appState: { hooks },
  });
  return { session: s, hooks };
}

export async function drain(events: AsyncGenerator<QueryEvent, unknown>): Promise<QueryEvent[]> {
  const all: QueryEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Every user message's text the session holds, joined (tool results and reminders included). */
export function userTexts(s: { messages: readonly { role: string; content: unknown }[] }): string {
  return JSON.stringify(s.messages.filter((m) => m.role === "user"));
}
