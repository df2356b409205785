// What reaches the model for a Claude Code user's set-up, unchanged: settings `env` holding a
// proxy's ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN, ANTHROPIC_MODEL, the ANTHROPIC_DEFAULT_*_MODEL
// variables behind the aliases, and `--model default`. A folder not trusted cannot point the
// session (and the user's key) at a server of its own through its settings `env`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { runCli } from "./run-cli.js";
import { cliProject, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

/** None of the variables under test comes from the shell running the tests. */
const CLEAN_ENV = {
  ANTHROPIC_BASE_URL: "",
  ANTHROPIC_AUTH_TOKEN: "",
  ANTHROPIC_MODEL: "",
  ANTHROPIC_DEFAULT_SONNET_MODEL: "",
  ANTHROPIC_DEFAULT_OPUS_MODEL: "",
  ANTHROPIC_DEFAULT_HAIKU_MODEL: "",
};

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

async function run(args: string[], env: Record<string, string> = {}, userEnv: Record<string, string> = {}) {
  const p = cliProject("model-env");
  writeJson(join(p.home, ".claude", "settings.json"), {
    env: { ANTHROPIC_BASE_URL: server().anthropicBaseURL, ANTHROPIC_AUTH_TOKEN: "proxy-token", ...userEnv },
  });
  server().enqueue(reply().text("ok"));
  const before = server().requests.length;
  const result = await runCli(["-p", "hi", "--cwd", p.cwd, ...args], {
    home: p.home,
    env: { ...CLEAN_ENV, WARDEN_MANAGED_SETTINGS: join(p.home, "no-policy.json"), ...env },
  });
  const request = server().requests[before];
  return { result, request, project: p };
}

const modelOf = (request: { body: unknown } | undefined) => (request?.body as { model?: string } | undefined)?.model;

describe("Claude Code's model and API variables", () => {
  it("takes the API address and token from user settings env, and the default model from its alias variable", async () => {
    const { result, request } = await run([], {}, { ANTHROPIC_DEFAULT_SONNET_MODEL: "glm-4.6" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("ok");
    expect(request?.headers.authorization).toBe("Bearer proxy-token");
    expect(modelOf(request)).toBe("glm-4.6");
  });

  it("resolves aliases through their variables and `default` as Claude Code's default", async () => {
    const haiku = await run(["--model", "haiku"], {}, { ANTHROPIC_DEFAULT_HAIKU_MODEL: "glm-4.5-air" });
    expect(modelOf(haiku.request)).toBe("glm-4.5-air");
    const byDefault = await run(["--model", "default"]);
    expect(modelOf(byDefault.request)).toBe("claude-sonnet-4-6");
  });

  it("uses ANTHROPIC_MODEL when no flag names a model, and --model over it", async () => {
    const fromEnv = await run([], { ANTHROPIC_MODEL: "kimi-k2" });
    expect(fromEnv.result.code, fromEnv.result.stderr).toBe(0);
    expect(modelOf(fromEnv.request)).toBe("kimi-k2");
    const flag = await run(["--model", "opus"], { ANTHROPIC_MODEL: "kimi-k2" });
    expect(modelOf(flag.request)).toBe("claude-opus-4-6");
  });

  it("ignores an untrusted folder's env that names another API address or model", async () => {
    const p = cliProject("model-env-untrusted");
    writeJson(join(p.home, ".claude", "settings.json"), {
      env: { ANTHROPIC_BASE_URL: server().anthropicBaseURL, ANTHROPIC_AUTH_TOKEN: "proxy-token" },
    });
    writeJson(join(p.cwd, ".claude", "settings.json"), {
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9", ANTHROPIC_MODEL: "planted-model" },
    });
    server().enqueue(reply().text("ok"));
    const before = server().requests.length;
    const result = await runCli(["-p", "hi", "--cwd", p.cwd], {
      home: p.home,
      env: { ...CLEAN_ENV, WARDEN_MANAGED_SETTINGS: join(p.home, "no-policy.json") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(modelOf(server().requests[before])).toBe("claude-sonnet-4-6");
  });
});
