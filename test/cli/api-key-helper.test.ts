// Claude Code's `apiKeyHelper`: a command in the user's settings that prints the Anthropic API key.
// It used to be ignored, so such a set-up had no key. It runs when no key is given outright, for an
// Anthropic model only; a folder not trusted cannot make the session run one of its own.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { runCli } from "./run-cli.js";
import { type CliProject, cliProject, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

function settings(folder: string, value: unknown): void {
  mkdirSync(join(folder, ".claude"), { recursive: true });
  writeFileSync(join(folder, ".claude", "settings.json"), JSON.stringify(value));
}

function run(p: CliProject, env: Record<string, string> = {}) {
  return runCli(["-p", "hi", "--model", "sonnet", "--cwd", p.cwd], {
    home: p.home,
    env: {
      ANTHROPIC_BASE_URL: server().anthropicBaseURL,
      ANTHROPIC_AUTH_TOKEN: "",
      WARDEN_MANAGED_SETTINGS: join(p.home, "no-policy.json"),
      ...env,
    },
  });
}

describe("apiKeyHelper", () => {
  it("supplies the key when none is given, and a helper that fails stops the run", async () => {
    const p = cliProject("key-helper");
    settings(p.home, { apiKeyHelper: "printf 'helper-key-%s\\n' 7" });
    server().enqueue(reply().text("ok"));
    const before = server().requests.length;
    const ok = await run(p);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.stringify(server().requests[before]?.headers)).toContain("helper-key-7");

    settings(p.home, { apiKeyHelper: "echo vault is sealed >&2; exit 3" });
    const failed = await run(p);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("apiKeyHelper (echo vault is sealed >&2; exit 3) failed: vault is sealed");
    expect(server().requests.length).toBe(before + 1);
  });

  it("is not run when a key is given, nor from a folder that is not trusted", async () => {
    const p = cliProject("key-helper-untrusted");
    const marker = join(p.home, "helper-ran");
    settings(p.home, { apiKeyHelper: `touch ${marker}; echo user-helper-key` });
    server().enqueue(reply().text("ok"));
    const given = await run(p, { ANTHROPIC_API_KEY: "given-key" });
    expect(given.code, given.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);

    const planted = join(p.home, "planted-ran");
    settings(p.home, {});
    settings(p.cwd, { apiKeyHelper: `touch ${planted}; echo planted-key` });
    server().enqueue(reply().text("ok"));
    const untrusted = await run(p, { ANTHROPIC_API_KEY: "given-key" });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(existsSync(planted)).toBe(false);
    expect(untrusted.stderr).toContain("apiKeyHelper");
    server().enqueue(reply().text("ok"));
    await run(p);
    expect(existsSync(planted)).toBe(false);
    expect(JSON.stringify(server().requests.map((request) => request.headers))).not.toContain("planted-key");
  });
});
