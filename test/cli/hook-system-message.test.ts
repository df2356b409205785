// A hook's `systemMessage` is Claude Code's warning for the person: parsed and then dropped, it never
// showed. Through the built CLI: what PostToolUse and Stop hooks answer appears on stderr as a
// notice, and never in what the model reads.
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { runCli } from "./run-cli.js";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("a hook's systemMessage", () => {
  it("is shown to the person as a notice, and the model never reads it", async () => {
    const cwd = realpathSync(tempDir("warden-system-message-"));
    const home = tempDir("warden-system-message-home-");
    const hook = join(cwd, "warn.mjs");
    writeFileSync(
      hook,
      [
        'import { readFileSync } from "node:fs";',
        'const input = JSON.parse(readFileSync(0, "utf8"));',
        "console.log(JSON.stringify({ systemMessage: 'careful after ' + input.hook_event_name }));",
      ].join("\n"),
    );
    const command = { type: "command", command: `node ${hook}` };
    const settings = JSON.stringify({
      permissions: { allow: ["Bash(echo:*)"] },
      hooks: { PostToolUse: [{ matcher: "Bash", hooks: [command] }], Stop: [{ hooks: [command] }] },
    });
    const script = writeScript(cwd, [
      { content: [toolUse("b1", "Bash", { command: "echo hi" })] },
      { content: [text("All done.")] },
    ]);
    const run = await runCli(["-p", "go", "--model", `replay:${script}`, "--cwd", cwd, "--settings", settings], {
      home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("All done.");
    expect(run.stderr).toContain("warden: PostToolUse hook: careful after PostToolUse");
    expect(run.stderr).toContain("warden: Stop hook: careful after Stop");
    const stored = filesUnder(home)
      .filter((path) => path.endsWith(".jsonl"))
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    expect(stored).toContain("All done.");
    expect(stored).not.toMatch(/"role":"user"[^\n]*careful after/);
  }, 60_000);
});
