// A slash command's `model` frontmatter, run as `-p "/name args"`: its run asks that model, as in
// Claude Code (it was read and then ignored: the session's model answered). A model that cannot be
// used is said on stderr and the session's model answers.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { type CliProject, cliProject, runScriptedCli, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

function withCommand(p: CliProject, model: string): void {
  mkdirSync(join(p.cwd, ".claude", "commands"), { recursive: true });
  writeFileSync(
    join(p.cwd, ".claude", "commands", "triage.md"),
    `---\ndescription: Triage an issue\nmodel: ${model}\n---\nTriage issue $ARGUMENTS.\n`,
  );
}

const modelOf = (body: unknown) => (body as { model: string }).model;

describe("a slash command's model", () => {
  it("answers the command's run", async () => {
    const p = cliProject("command-model");
    withCommand(p, "haiku");
    server().enqueue(reply().text("triaged"));
    const before = server().requests.length;
    const run = await runScriptedCli(server(), p, ["-p", "/triage 42"]);
    expect(run.code, run.stderr).toBe(0);
    const request = server().requests[before];
    expect(modelOf(request?.body)).toBe("claude-haiku-4-5");
    expect(JSON.stringify(request?.body)).toContain("Triage issue 42.");
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1) as string);
    expect(Object.keys(result.modelUsage)).toEqual(["claude-haiku-4-5"]);
  });

  it("is said and left unused when it cannot be used", async () => {
    const p = cliProject("command-model-bad");
    withCommand(p, "nowhere:thing");
    server().enqueue(reply().text("triaged"));
    const before = server().requests.length;
    const run = await runScriptedCli(server(), p, ["-p", "/triage 42"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('the model "nowhere:thing" the command asks for is not used');
    expect(modelOf(server().requests[before]?.body)).toBe("claude-test");
  });
});
