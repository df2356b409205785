// Drives the built CLI (bin/warden.js) with the real Agent SDK (@anthropic-ai/claude-agent-sdk),
// as a program written for Claude Code would: `pathToClaudeCodeExecutable` points at Warden, and
// the model is the replay provider (options.model = "replay:FILE") or the scripted Anthropic server
// (a bare claude-* id with ANTHROPIC_BASE_URL). Needs `npm run build`.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Options, type Query, query, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { tempDir } from "../loop/helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const wardenBin = join(root, "bin/warden.js");
if (!existsSync(join(root, "dist/cli.js"))) throw new Error("build Warden first: npm run build");

export interface Workspace {
  home: string;
  cwd: string;
}

export function workspace(): Workspace {
  return { home: tempDir("warden-sdk-home-"), cwd: tempDir("warden-sdk-cwd-") };
}

/** The SDK's options for a Warden run in this workspace; `env` adds to a clean environment. */
export function sdkOptions(ws: Workspace, options: Options & { extraEnv?: Record<string, string> } = {}): Options {
  const { extraEnv, ...rest } = options;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== "ANTHROPIC_API_KEY" && key !== "OPENAI_API_KEY") env[key] = value;
  }
  Object.assign(env, {
    HOME: ws.home,
    WARDEN_HOME: ws.home,
    WARDEN_MANAGED_SETTINGS: join(ws.home, "no-policy.json"),
    WARDEN_MAX_RETRIES: "2",
    ...extraEnv,
  });
  return {
    pathToClaudeCodeExecutable: wardenBin,
    executable: "node",
    cwd: ws.cwd,
    env,
    stderr: (text) => void stderrLines.push(text),
    ...rest,
  };
}

/** What the CLI wrote on stderr in this test file (for failure messages). */
export const stderrLines: string[] = [];

export async function collect(q: Query): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const message of q) messages.push(message);
  return messages;
}

/** The messages of a query that ends with an error result (the SDK throws after yielding it). */
export async function collectFailing(q: Query): Promise<{ messages: SDKMessage[]; error: Error }> {
  const messages: SDKMessage[] = [];
  try {
    for await (const message of q) messages.push(message);
  } catch (error) {
    return { messages, error: error as Error };
  }
  throw new Error("the query was expected to end with an error result");
}

export function run(prompt: string, options: Options): Promise<SDKMessage[]> {
  return collect(query({ prompt, options }));
}

export function results(messages: SDKMessage[]): Array<Extract<SDKMessage, { type: "result" }>> {
  return messages.filter((m): m is Extract<SDKMessage, { type: "result" }> => m.type === "result");
}

export function userMessage(text: string, uuid?: string): SDKUserMessage {
  return {
    type: "user",
    message: { role: "user", content: text },
    parent_tool_use_id: null,
    ...(uuid !== undefined && { uuid: uuid as SDKUserMessage["uuid"] }),
  };
}

/** An async iterable of user messages the test feeds one at a time. */
export class Prompts implements AsyncIterable<SDKUserMessage> {
  private readonly queue: SDKUserMessage[] = [];
  private waiting: ((value: IteratorResult<SDKUserMessage>) => void) | undefined;
  private done = false;

  send(text: string, uuid?: string): void {
    const message = userMessage(text, uuid);
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: message, done: false });
    } else this.queue.push(message);
  }

  end(): void {
    this.done = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    return {
      next: () => {
        const next = this.queue.shift();
        if (next) return Promise.resolve({ value: next, done: false });
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
    };
  }
}
