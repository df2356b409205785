// Teammates with isolation "worktree", through the real CLI against the scripted model server, in
// both teammate modes: each works in a git worktree of its own (a teammate's file lands there, not
// in the lead's tree), the team file records it, and when the team is deleted a worktree that
// changed nothing is removed with its branch while one with work in it is kept.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { jsonLines } from "./run-cli.js";
import { assistantTurns, cliProject, heard, messagesOf, runScriptedCli, whoAsks, wireText } from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.respondWith(undefined);
});

const git = (cwd: string, args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });

// tmux outside tmux: process mode, said once on stderr.
describe.each(["in-process", "process", "tmux"])("teammates in worktrees of their own (%s)", (mode) => {
  it("work apart from the lead's tree; an unused worktree goes at the end, one with work stays", async () => {
    const p = cliProject(`teammate-worktree-${mode}`);
    git(p.cwd, ["init", "-q"]);
    git(p.cwd, ["commit", "-q", "--allow-empty", "-m", "start"]);
    let spawnResult = "";
    server.respondWith((request) => {
      const who = whoAsks(request);
      if (who === "alice") {
        return assistantTurns(request) === 0
          ? reply().tool("Bash", { command: "echo from alice > alice.txt && pwd" })
          : reply().text("alice is done.");
      }
      if (who === "bob") return reply().text("bob looked and changed nothing.");
      const said = heard(request);
      if (!said.includes("Spawned") && !/Team "crew"|crew/.test(said))
        return reply().tool("TeamCreate", { team_name: "crew" });
      if (!said.includes("Spawned teammate"))
        return reply()
          .tool("Agent", {
            team_name: "crew",
            name: "alice",
            description: "alice",
            prompt: "Write.",
            isolation: "worktree",
          })
          .tool("Agent", {
            team_name: "crew",
            name: "bob",
            description: "bob",
            prompt: "Look.",
            isolation: "worktree",
          });
      spawnResult = said;
      if (said.includes('teammate_id="alice"') && said.includes('teammate_id="bob"') && !said.includes("deleted"))
        return reply().tool("TeamDelete", {});
      if (said.includes("deleted")) return reply().text("The team is done.");
      return reply().text("Waiting for the team.");
    });
    const run = await runScriptedCli(
      server,
      p,
      ["-p", "Run the team", "--teammate-mode", mode, "--permission-mode", "bypassPermissions"],
      { WARDEN_AGENT_TEAMS: "1", TMUX: "" },
    );
    expect(run.code, run.stderr).toBe(0);
    const noTmux = run.stderr.match(/this session is not inside tmux; teammates run as processes without panes/g) ?? [];
    expect(noTmux).toHaveLength(mode === "tmux" ? 1 : 0);
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1), run.stderr).toMatchObject({ type: "result", result: "The team is done." });

    // The lead was told where each works.
    expect(spawnResult).toMatch(
      /own git worktree at \S+\.worktrees\/teammate-alice-\S+ \(branch worktree\/teammate-alice-/,
    );
    // Alice's file is in her worktree, kept with its branch; the lead's tree has no such file.
    const worktrees = readdirSync(join(p.cwd, ".worktrees"));
    const alice = worktrees.filter((name) => name.startsWith("teammate-alice-"));
    expect(alice).toHaveLength(1);
    expect(readFileSync(join(p.cwd, ".worktrees", alice[0] as string, "alice.txt"), "utf8")).toBe("from alice\n");
    expect(existsSync(join(p.cwd, "alice.txt"))).toBe(false);
    // Bob changed nothing: his worktree and branch are gone.
    expect(worktrees.filter((name) => name.startsWith("teammate-bob-"))).toEqual([]);
    const branches = git(p.cwd, ["branch", "--list", "worktree/*", "--format=%(refname:short)"]).trim().split("\n");
    expect(branches).toEqual([`worktree/${alice[0]}`]);
    // The lead's tree stays clean: the worktrees folder is excluded.
    expect(git(p.cwd, ["status", "--porcelain"]).trim()).toBe("");
    // Alice's own transcript shows her command ran in her worktree.
    const sessionId = String(lines[0]?.session_id);
    const subagents = join(p.home, "projects", projectSlug(p.cwd), sessionId, "subagents");
    const sidechains = readdirSync(subagents).map((file) => readFileSync(join(subagents, file), "utf8"));
    expect(sidechains.join("\n")).toContain(join(p.cwd, ".worktrees", alice[0] as string));
  }, 120_000);
});

describe("a teammate in its worktree across --resume", () => {
  it("goes on in the same worktree when the resumed lead messages it", async () => {
    const p = cliProject("teammate-worktree-resume");
    git(p.cwd, ["init", "-q"]);
    git(p.cwd, ["commit", "-q", "--allow-empty", "-m", "start"]);
    const args = ["--permission-mode", "bypassPermissions"];
    const teams = { WARDEN_AGENT_TEAMS: "1" };
    server.respondWith((request) => {
      if (whoAsks(request) === "alice") {
        const step = heard(request).includes("NEXT-STEP") ? "echo two >> w.txt" : "echo one > w.txt";
        return heard(request).includes("exit code") || assistantTurns(request) % 2 === 1
          ? reply().text("Done here.")
          : reply().tool("Bash", { command: step });
      }
      const said = heard(request);
      if (!said.includes("crew")) return reply().tool("TeamCreate", { team_name: "crew" });
      if (!said.includes("Spawned teammate"))
        return reply().tool("Agent", {
          team_name: "crew",
          name: "alice",
          description: "alice",
          prompt: "Write w.txt.",
          isolation: "worktree",
        });
      return reply().text("Noted.");
    });
    const first = await runScriptedCli(server, p, ["-p", "Get w.txt written", ...args], teams);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = String(jsonLines(first.stdout)[0]?.session_id);
    const [folder] = readdirSync(join(p.cwd, ".worktrees"));
    const worktree = join(p.cwd, ".worktrees", folder as string);
    expect(readFileSync(join(worktree, "w.txt"), "utf8")).toBe("one\n");

    server.respondWith((request) => {
      if (whoAsks(request) === "alice") {
        const last = messagesOf(request).at(-1);
        return last && wireText(last).includes("NEXT-STEP")
          ? reply().tool("Bash", { command: "echo two >> w.txt" })
          : reply().text("Appended.");
      }
      return heard(request).includes("Taken up again")
        ? reply().text("Done.")
        : reply().tool("SendMessage", { to: "alice", message: "NEXT-STEP: append two", summary: "append two" });
    });
    const resumed = await runScriptedCli(server, p, ["-p", "Go on", "--resume", sessionId, ...args], teams);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(worktree, "w.txt"), "utf8")).toBe("one\ntwo\n");
    expect(existsSync(join(p.cwd, "w.txt"))).toBe(false);
  }, 120_000);
});
