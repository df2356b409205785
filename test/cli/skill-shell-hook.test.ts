// PreSkillShellCommand through the built CLI: `warden -p /tidy` runs the command's `!`command``
// lines, and a project hook that denies the `rm` line keeps the file, its reason standing in the
// line's place in what the model reads, while the other line runs.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, writeScript } from "../loop/helpers.js";
import { runCli } from "./run-cli.js";

function transcripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? transcripts(join(dir, entry.name))
      : entry.name.endsWith(".jsonl")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("warden -p: PreSkillShellCommand", () => {
  it("a denied !`command` line does not run and the model reads the hook's reason in its place", async () => {
    const home = tempDir("warden-skill-shell-home-");
    const cwd = tempDir("warden-skill-shell-project-");
    mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(cwd, "keep.txt"), "precious\n");
    writeFileSync(
      join(cwd, ".claude", "commands", "tidy.md"),
      "---\nallowed-tools: Bash(echo:*), Bash(rm:*)\n---\nHi: !`echo hello`\nGone: !`rm keep.txt`\nSay done.\n",
    );
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreSkillShellCommand",
        permissionDecision: "deny",
        permissionDecisionReason: "no deleting from commands",
      },
    });
    const hook = `input=$(cat); case "$input" in *'"rm '*) printf '%s\\n' '${deny}';; esac`;
    writeFileSync(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { PreSkillShellCommand: [{ matcher: "Bash", hooks: [{ type: "command", command: hook }] }] },
      }),
    );
    const script = writeScript(cwd, [{ content: [text("done")] }]);
    const run = await runCli(["-p", "/tidy", "--cwd", cwd, "--trust-project", "--model", `replay:${script}`], {
      home,
      processCwd: cwd,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(readFileSync(join(cwd, "keep.txt"), "utf8")).toBe("precious\n");
    expect(existsSync(join(cwd, "keep.txt"))).toBe(true);
    const stored = transcripts(home)
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    expect(stored).toContain(
      "Hi: hello\\nGone: [warden did not run `rm keep.txt`: a PreSkillShellCommand hook refused it: no deleting from commands]",
    );
  });
});
