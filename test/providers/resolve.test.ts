import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseJobLines, parseJobSpec } from "../../src/fleet/job-spec.js";
import { modelInfoFor } from "../../src/models/resolve.js";
import { providerSpecProblem, resolveProvider } from "../../src/providers/resolve.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { drain, requestOf } from "./support.js";

const ENV_KEYS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OLLAMA_HOST",
  "OPENROUTER_API_KEY",
];

describe("resolveProvider", () => {
  let server: ScriptedModelServer;
  let saved: Record<string, string | undefined>;
  let dir: string;
  beforeEach(async () => {
    server = await startScriptedModelServer();
    saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
    for (const key of ENV_KEYS) delete process.env[key];
    dir = await mkdtemp(join(tmpdir(), "warden-resolve-"));
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a spec without a prefix (other than Claude's own names), listing the accepted forms", async () => {
    // Bare claude-* ids and sonnet/opus/haiku are Anthropic's, as Claude Code users write them.
    expect((await resolveProvider("claude-test-model", { cwd: dir })).providerName).toBe("anthropic");
    await expect(resolveProvider("some-test-model", { cwd: dir })).rejects.toThrow(
      /no provider prefix[\s\S]*anthropic:MODEL[\s\S]*openai:MODEL[\s\S]*replay:FILE/,
    );
  });

  it("refuses an unknown provider and an empty model", async () => {
    await expect(resolveProvider("gemini:pro", { cwd: dir })).rejects.toThrow(/unknown provider "gemini"/);
    await expect(resolveProvider("openai:", { cwd: dir })).rejects.toThrow(/nothing follows "openai:"/);
  });

  it("lists the model forms with every description starting in one column", async () => {
    const message = await resolveProvider("gemini:pro", { cwd: dir }).then(
      () => "",
      (error: Error) => error.message,
    );
    const forms = message.split("\n").filter((line) => /^ {2}\w+:(MODEL|FILE) /.test(line));
    expect(forms.map((line) => line.split(":")[0]?.trim())).toEqual(
      expect.arrayContaining(["anthropic", "openai", "ollama", "openrouter", "replay"]),
    );
    expect(new Set(forms.map((line) => line.search(/(?<=:(MODEL|FILE) +)\S/)))).toEqual(new Set([20]));
  });

  it("anthropic:MODEL talks to ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY", async () => {
    process.env.ANTHROPIC_API_KEY = "env-anthropic-key";
    process.env.ANTHROPIC_BASE_URL = server.anthropicBaseURL;
    const resolved = await resolveProvider("anthropic:claude-test-model", { cwd: dir });
    expect(resolved).toMatchObject({ model: "claude-test-model", providerName: "anthropic" });
    server.enqueue(reply().text("hi"));
    const { error } = await drain(resolved.provider.stream(requestOf({ model: resolved.model })));
    expect(error).toBeUndefined();
    expect(server.requests[0]?.path).toBe("/v1/messages");
    expect(JSON.stringify(server.requests[0]?.headers)).toContain("env-anthropic-key");
    expect((server.requests[0]!.body as { model: string }).model).toBe("claude-test-model");
  });

  it("Claude Code's [1m] suffix asks for the model's 1M-token window: the id without it, the beta header", async () => {
    process.env.ANTHROPIC_API_KEY = "k";
    process.env.ANTHROPIC_BASE_URL = server.anthropicBaseURL;
    for (const [given, sent] of [
      ["sonnet[1m]", "claude-sonnet-4-6"],
      ["claude-sonnet-4-5-20250929[1m]", "claude-sonnet-4-5-20250929"],
    ] as const) {
      const resolved = await resolveProvider(given, { cwd: dir });
      expect(resolved.model).toBe(`${sent}[1m]`);
      expect(modelInfoFor("anthropic", resolved.model)).toMatchObject({ contextWindow: 1_000_000, source: "catalog" });
      server.enqueue(reply().text("hi"));
      const { error } = await drain(resolved.provider.stream(requestOf({ model: resolved.model })));
      expect(error).toBeUndefined();
      const request = server.requests.at(-1);
      expect((request?.body as { model?: string } | undefined)?.model).toBe(sent);
      expect(request?.headers["anthropic-beta"]).toContain("context-1m-2025-08-07");
    }
    // Without the suffix: no beta header, the catalog's window.
    const plain = await resolveProvider("sonnet", { cwd: dir });
    server.enqueue(reply().text("hi"));
    await drain(plain.provider.stream(requestOf({ model: plain.model })));
    expect(server.requests.at(-1)?.headers["anthropic-beta"]).toBeUndefined();
    expect(modelInfoFor("anthropic", plain.model).contextWindow).toBe(200_000);
  });

  it("openai:MODEL works keyless against a local OPENAI_BASE_URL", async () => {
    process.env.OPENAI_BASE_URL = server.openaiBaseURL;
    const resolved = await resolveProvider("openai:qwen2.5-coder", { cwd: dir });
    server.enqueue(reply().text("hi"));
    const { error } = await drain(resolved.provider.stream(requestOf({ model: resolved.model })));
    expect(error).toBeUndefined();
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer no-key");
  });

  it("openai:MODEL without a key for api.openai.com fails clearly, sends nothing and is not retried", async () => {
    let retries = 0;
    const resolved = await resolveProvider("openai:gpt-4.1", {
      cwd: dir,
      retry: { maxRetries: 3, baseDelayMs: 1, onRetry: () => retries++ },
    });
    const { error } = await drain(resolved.provider.stream(requestOf()));
    expect((error as Error).message).toMatch(/no API key. Set OPENAI_API_KEY/);
    expect(error).toMatchObject({ retryable: false });
    expect(retries).toBe(0);
  });

  it("anthropic:MODEL without any key fails clearly", async () => {
    const resolved = await resolveProvider("anthropic:claude-test-model", { cwd: dir, retry: { maxRetries: 0 } });
    const { error } = await drain(resolved.provider.stream(requestOf()));
    expect((error as Error).message).toMatch(/no API key. Set ANTHROPIC_API_KEY/);
  });

  it("settings passed in win over the environment", async () => {
    process.env.OPENAI_API_KEY = "env-key";
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    const resolved = await resolveProvider("openai:m", {
      cwd: dir,
      openai: { apiKey: "settings-key", baseURL: server.openaiBaseURL },
    });
    server.enqueue(reply().text("hi"));
    const { error } = await drain(resolved.provider.stream(requestOf({ model: resolved.model })));
    expect(error).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBe("Bearer settings-key");
  });

  it("ollama:MODEL keeps the tag after a second colon, uses OLLAMA_HOST and never sends OPENAI_API_KEY", async () => {
    process.env.OLLAMA_HOST = server.url.replace("http://", "");
    process.env.OPENAI_API_KEY = "secret-openai-key";
    const resolved = await resolveProvider("ollama:llama3.1:8b", { cwd: dir });
    expect(resolved).toMatchObject({ model: "llama3.1:8b", providerName: "ollama" });
    expect(resolved.provider.name).toBe("ollama");
    server.enqueue(reply().text("hi"));
    const { error } = await drain(resolved.provider.stream(requestOf({ model: resolved.model })));
    expect(error).toBeUndefined();
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(JSON.stringify(server.requests[0]?.headers)).not.toContain("secret-openai-key");
    expect((server.requests[0]!.body as { model: string }).model).toBe("llama3.1:8b");
  });

  it("a hosted compatible preset without its key is refused at once", async () => {
    await expect(resolveProvider("openrouter:anthropic/claude-sonnet-4.5", { cwd: dir })).rejects.toThrow(
      /set OPENROUTER_API_KEY/,
    );
  });

  it("replay:FILE loads the script relative to cwd", async () => {
    await writeFile(
      join(dir, "script.jsonl"),
      `${JSON.stringify({ content: [{ type: "text", text: "replayed in {{cwd}}" }] })}\n`,
    );
    const resolved = await resolveProvider("replay:script.jsonl", { cwd: dir });
    expect(resolved).toMatchObject({ model: "script.jsonl", providerName: "replay" });
    const { events } = await drain(resolved.provider.stream(requestOf()));
    expect(events.find((e) => e.type === "block")).toEqual({
      type: "block",
      block: { type: "text", text: `replayed in ${dir}` },
    });
  });
});

describe("a fleet job's model, checked at submit", () => {
  it("refuses a provider Warden does not know, or nothing after the colon, naming the known ones", () => {
    expect(() => parseJobSpec({ prompt: "x", model: "bogus:thing" }, "line 1", providerSpecProblem)).toThrow(
      /line 1: model: unknown provider "bogus" \(known: anthropic, openai, .*replay\)/,
    );
    expect(() => parseJobSpec({ prompt: "x", model: "anthropic:" }, "line 2", providerSpecProblem)).toThrow(
      /line 2: model: nothing follows "anthropic:"/,
    );
    expect(() =>
      parseJobLines(
        '{"prompt":"a","model":"replay:/s.jsonl"}\n{"prompt":"b","model":"nope:x"}\n',
        "jobs",
        providerSpecProblem,
      ),
    ).toThrow(/no job was submitted:\n {2}jobs line 2: model: unknown provider "nope"/);
  });

  it("takes every provider resolveProvider takes, Claude Code's names and Ollama tags", () => {
    for (const model of [
      "anthropic:claude-sonnet-4-6",
      "openai:gpt-4.1",
      "ollama:llama3.1:8b",
      "replay:/s.jsonl",
      "sonnet",
      "claude-opus-4-6",
    ]) {
      expect(parseJobSpec({ prompt: "x", model }, "t", providerSpecProblem).model).toBe(model);
    }
  });
});
