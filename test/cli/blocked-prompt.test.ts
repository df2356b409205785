// A prompt refused before the model saw it, through the built CLI: a UserPromptSubmit hook that
// blocks the prompt, a UserPromptExpansion hook that blocks a `/command`, a skill that cannot run
// from a typed `/name`. None is a usage error: the message names what refused the prompt and why,
// never points at --help (no option would help), the run exits 1 and a JSON reader gets an error
// result of kind `blocked`. The model is never asked (its replay script would say so).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

function project(settings: object) {
  const home = tempDir("warden-blocked-home-");
  const cwd = tempDir("warden-blocked-project-");
  mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify(settings));
  writeFileSync(join(cwd, ".claude", "commands", "hi.md"), "Say hi to the team\n");
  mkdirSync(join(cwd, ".claude", "skills", "forked"), { recursive: true });
  writeFileSync(
    join(cwd, ".claude", "skills", "forked", "SKILL.md"),
    "---\nname: forked\ndescription: runs apart\ncontext: fork\ndisable-model-invocation: true\n---\nDo the thing\n",
  );
  const script = writeScript(cwd, [{ content: [text("the model was asked")] }]);
  return { home, cwd, script };
}

function blockingHook(event: string, reason: string) {
  return { hooks: { [event]: [{ hooks: [{ type: "command", command: `echo '${reason}' >&2; exit 2` }] }] } };
}

const cases = [
  {
    name: "a UserPromptSubmit hook blocks the prompt",
    settings: blockingHook("UserPromptSubmit", "no secrets in prompts"),
    prompt: "here is my password",
    says: "the prompt was blocked by a UserPromptSubmit hook: no secrets in prompts",
  },
  {
    name: "a UserPromptExpansion hook blocks a /command",
    settings: blockingHook("UserPromptExpansion", "no slash commands today"),
    prompt: "/hi",
    says: "a UserPromptExpansion hook blocked /hi: no slash commands today",
  },
  {
    name: "a typed /skill that cannot run this way",
    settings: {},
    prompt: "/forked",
    says: "the skill forked runs as a subagent (context: fork), which the Skill tool starts, and its disable-model-invocation keeps it from the Skill tool",
  },
];

describe("warden -p: a prompt refused before the model saw it", () => {
  for (const { name, settings, prompt, says } of cases) {
    it(`${name}: says what refused it and why, no --help hint, exit 1, a 'blocked' result for JSON`, async () => {
      const ws = project(settings);
      const args = ["-p", prompt, "--cwd", ws.cwd, "--trust-project", "--model", `replay:${ws.script}`];
      const run = await runCli(args, { home: ws.home, processCwd: ws.cwd });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`warden: ${says}`);
      expect(run.stderr).not.toContain("--help");
      expect(run.stdout).not.toContain("the model was asked");

      for (const format of ["json", "stream-json"]) {
        const json = await runCli([...args, "--output-format", format, "--verbose"], {
          home: ws.home,
          processCwd: ws.cwd,
        });
        expect(json.code, format).toBe(1);
        expect(json.stderr, format).not.toContain("--help");
        const results = jsonLines(json.stdout).filter((line) => line.type === "result");
        expect(results, format).toHaveLength(1);
        expect(results[0], format).toMatchObject({ is_error: true, error_kind: "blocked" });
        expect(String(results[0]?.error), format).toContain(says);
      }
    });
  }
});
