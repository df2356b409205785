// --system-prompt as Claude Code has it: the text replaces the built-in prompt, and the project's
// CLAUDE.md and --append-system-prompt still reach the model after it (a script that sets a
// persona keeps its repository's instructions). Before, both were dropped without a word.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { cliProject, runScriptedCli, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

const systemText = (body: unknown) =>
  ((body as { system?: Array<{ text: string }> }).system ?? []).map((block) => block.text).join("\n");

describe("--system-prompt", () => {
  it("replaces the built-in prompt and keeps CLAUDE.md and --append-system-prompt after it", async () => {
    const p = cliProject("system-prompt");
    writeFileSync(join(p.cwd, "CLAUDE.md"), "Run the tests with make check.\n");
    mkdirSync(join(p.home, ".claude"), { recursive: true });
    writeFileSync(join(p.home, ".claude", "CLAUDE.md"), "Answer in British English.\n");
    server().enqueue(reply().text("ok"));
    const before = server().requests.length;
    const run = await runScriptedCli(server(), p, [
      "-p",
      "hi",
      "--system-prompt",
      "You review code and change nothing.",
      "--append-system-prompt",
      "End with a one-line verdict.",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const system = systemText(server().requests[before]?.body);
    expect(system.startsWith("You review code and change nothing.")).toBe(true);
    expect(system).not.toContain("You are Warden");
    expect(system).toContain("Run the tests with make check.");
    expect(system).toContain("Answer in British English.");
    expect(system.trimEnd().endsWith("End with a one-line verdict.")).toBe(true);
  });
});
