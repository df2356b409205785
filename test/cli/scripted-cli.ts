// The real CLI (built) in a project of its own, its model the scripted Anthropic server on
// 127.0.0.1, with stream-json output: the set-up the CLI tests of subagents, teams, planning and
// sessions share.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import {
  type RecordedRequest,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";
import { type CliOptions, runCli } from "./run-cli.js";

/** Warden's home (WARDEN_HOME, HOME) and the project folder a session runs in. */
export interface CliProject {
  home: string;
  cwd: string;
}

/** A fresh home and project folder; `name` goes into the folder names, to tell them apart in /tmp. */
export function cliProject(name: string): CliProject {
  return { home: tempDir(`warden-${name}-home-`), cwd: realpathSync(tempDir(`warden-${name}-project-`)) };
}

/** The scripted model server of one test file: started before its first test, closed after its last. */
export function scriptedServerOfFile(): () => ScriptedModelServer {
  let server: ScriptedModelServer | undefined;
  beforeAll(async () => {
    server = await startScriptedModelServer();
  });
  afterAll(() => server?.close());
  return () => {
    if (!server) throw new Error("the scripted model server starts before the file's first test");
    return server;
  };
}

/** Runs `warden ARGS` in the project with stream-json output, answered by `server`; no managed policy. */
export function runScriptedCli(
  server: ScriptedModelServer,
  project: CliProject,
  args: string[],
  env: Record<string, string> = {},
  options: Pick<CliOptions, "onStdout"> = {},
) {
  return runCli(["--model", "anthropic:claude-test", "--output-format", "stream-json", "--cwd", project.cwd, ...args], {
    ...options,
    home: project.home,
    env: {
      ANTHROPIC_API_KEY: "test",
      ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      WARDEN_MANAGED_SETTINGS: join(project.home, "no-policy.json"),
      ...env,
    },
  });
}

/** A message of a request as the Anthropic wire has it. */
export interface WireMessage {
  role: string;
  content: string | Array<{ type: string; text?: string; content?: unknown; tool_use_id?: string }>;
}

export const messagesOf = (request: RecordedRequest) => (request.body as { messages: WireMessage[] }).messages;

/** A wire message's text: its text blocks and tool results, one per line. */
export function wireText(message: WireMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((block) => {
      if (block.type === "text") return block.text ?? "";
      if (block.type !== "tool_result") return "";
      return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
    })
    .join("\n");
}

/** The text of the tool_result for tool_use `id` as the request carried it ("" when it carried none). */
export function resultIn(request: RecordedRequest, id: string): string {
  for (const message of messagesOf(request)) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_result" && block.tool_use_id === id) {
        return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      }
    }
  }
  return "";
}

/** Who a request is from in a team: the lead, or the teammate its system prompt names. */
export function whoAsks(request: RecordedRequest): string {
  const system = JSON.stringify((request.body as { system?: unknown }).system ?? "");
  return /You are \\"(\w+)\\", a teammate/.exec(system)?.[1] ?? "lead";
}

/** Everything the user side of the request's conversation said (messages, tool results). */
export const heard = (request: RecordedRequest) =>
  messagesOf(request)
    .filter((m) => m.role === "user")
    .map(wireText)
    .join("\n");

/** How many answers the model gave in the request's conversation so far. */
export const assistantTurns = (request: RecordedRequest) =>
  messagesOf(request).filter((m) => m.role === "assistant").length;
