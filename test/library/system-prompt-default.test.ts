// The library's query() without options.systemPrompt sends the model what the Agent SDK's query()
// does when it drives a session: an empty system prompt (the SDK passes "" unless told to use the
// claude_code preset), so one program gets the same requests on both. The preset gives Warden's.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../../src/sdk/index.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";

let server: ScriptedModelServer;
const saved = { ...process.env };
beforeAll(async () => {
  server = await startScriptedModelServer();
  process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-library-system-home-"));
  process.env.ANTHROPIC_API_KEY = "test-key";
  process.env.ANTHROPIC_BASE_URL = server.anthropicBaseURL;
});
afterAll(async () => {
  await server.close();
  for (const key of ["WARDEN_HOME", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

async function systemSent(options: Parameters<typeof query>[0]["options"]): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), "warden-library-system-"));
  server.enqueue(reply().text("ok"));
  for await (const _ of query({ prompt: "hi", options: { cwd, model: "claude-sonnet-4-6", ...options } }));
  const body = server.requests.at(-1)?.body as { system?: string | Array<{ text: string }> };
  if (body.system === undefined) return "";
  return typeof body.system === "string" ? body.system : body.system.map((block) => block.text).join("\n");
}

describe("query()'s system prompt", () => {
  it("is empty when systemPrompt is not given, as the Agent SDK sends it", async () => {
    expect(await systemSent({})).not.toContain("Warden");
  });

  it("is Warden's with the claude_code preset, and the string given otherwise", async () => {
    expect(await systemSent({ systemPrompt: { type: "preset", preset: "claude_code" } })).toContain("Warden");
    expect(await systemSent({ systemPrompt: "You are a release bot." })).toContain("You are a release bot.");
    // The SDK's other forms: an array of blocks and a custom prompt.
    const blocks = await systemSent({ systemPrompt: ["First block.", "Second block."] });
    expect(blocks).toContain("First block.");
    expect(blocks).toContain("Second block.");
    expect(blocks).not.toContain("Warden");
    const custom = await systemSent({ systemPrompt: { type: "custom", prompt: "Custom bot." } });
    expect(custom).toContain("Custom bot.");
    expect(custom).not.toContain("Warden");
  });
});
