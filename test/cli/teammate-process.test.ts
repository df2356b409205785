// Teammates in process mode (`--teammate-mode process`): each teammate is a `warden teammate`
// child process of the lead, run through the real CLI against the scripted model server. Two
// teammates finish a shared task list, the lead and a teammate exchange messages through the team's
// mailboxes, every teammate call is decided by the lead (its deny rules, its headless policy for
// asks), and no process is left behind after TeamDelete or after the lead is killed with SIGKILL.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import {
  hang,
  type RecordedRequest,
  reply,
  replyFrom,
  type ScriptedModelServer,
  type ScriptStepSource,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { jsonLines } from "./run-cli.js";
import {
  assistantTurns,
  type CliProject,
  cliProject,
  heard,
  messagesOf,
  runScriptedCli,
  whoAsks,
} from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.respondWith(undefined);
});

const TEAMS = { WARDEN_AGENT_TEAMS: "1" };
/** How a teammate's process shows in `ps`: the CLI script, the internal subcommand and the SDK's protocol. */
const TEAMMATE_PROCESS =
  /(bin\/warden\.js|cli\/main\.[tj]s|dist\/cli\.js) teammate --input-format stream-json --output-format stream-json$/;

function teammateProcesses(): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => TEAMMATE_PROCESS.test(line.trim()));
}

function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function until(condition: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
  return condition();
}

/** The tool calls made so far in the request's conversation, by name. */
function calls(request: RecordedRequest, name: string): number {
  let count = 0;
  for (const message of messagesOf(request)) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content as Array<{ type: string; name?: string }>)
      if (block.type === "tool_use" && block.name === name) count++;
  }
  return count;
}

/** The team's folder under the lead's (only) session folder. */
function teamDir(p: CliProject): string {
  const projectDir = join(p.home, "projects", projectSlug(p.cwd));
  const session = readdirSync(projectDir).find((name) => existsSync(join(projectDir, name, "teams", "crew")));
  return join(projectDir, session ?? "none", "teams", "crew");
}

function taskStatuses(dir: string): string[] {
  const tasks = join(dir, "tasks");
  if (!existsSync(tasks)) return [];
  return readdirSync(tasks)
    .filter((f) => /^\d+\.json$/.test(f))
    .map((f) => (JSON.parse(readFileSync(join(tasks, f), "utf8")) as { status: string }).status);
}

describe("teammates as processes of their own", () => {
  it("two teammates finish the shared list, messages go both ways, the lead decides their calls", async () => {
    const p = cliProject("teammate-process");
    const firstRequest = server.requests.length;
    let runningBeforeDelete: string[] = [];
    const seenBy: Record<string, string> = { alice: "", bob: "" };
    // A teammate's work: take its task, write its file, try what the lead forbids or cannot approve, finish.
    const work = (who: "alice" | "bob", request: RecordedRequest): ScriptStepSource => {
      const task = who === "alice" ? "1" : "2";
      const turn = assistantTurns(request);
      seenBy[who] = heard(request);
      if (turn === 0) return reply().tool("TaskUpdate", { taskId: task, status: "in_progress" });
      if (turn === 1)
        return reply().tool("Write", { file_path: join(p.cwd, `${who}.txt`), content: `${who} was here\n` });
      if (turn === 2)
        return who === "bob"
          ? reply().tool("Bash", { command: "rm -f alice.txt" })
          : reply().tool("Bash", { command: "curl -s http://127.0.0.1:9/" });
      if (turn === 3) return reply().tool("TaskUpdate", { taskId: task, status: "completed" });
      if (who === "alice" && heard(request).includes("PING-42") && calls(request, "SendMessage") === 0)
        return reply().tool("SendMessage", { to: "team-lead", message: "PONG-42 from alice", summary: "pong" });
      return reply().text(`${who} is done.`);
    };
    server.respondWith((request) => {
      const who = whoAsks(request);
      if (who === "alice" || who === "bob") return work(who, request);
      if (calls(request, "TeamCreate") === 0) return reply().tool("TeamCreate", { team_name: "crew" });
      if (calls(request, "TaskCreate") === 0)
        return reply().tool("TaskCreate", { subject: "Alice's part", description: "write alice.txt" });
      if (calls(request, "TaskCreate") === 1)
        return reply().tool("TaskCreate", { subject: "Bob's part", description: "write bob.txt" });
      if (calls(request, "Agent") === 0)
        return reply()
          .tool("Agent", { team_name: "crew", name: "alice", description: "alice", prompt: "Do task 1." })
          .tool("Agent", { team_name: "crew", name: "bob", description: "bob", prompt: "Do task 2." });
      if (calls(request, "SendMessage") === 0)
        return reply().tool("SendMessage", { to: "alice", message: "PING-42: answer me", summary: "ping" });
      if (calls(request, "TeamDelete") === 0) {
        const statuses = taskStatuses(teamDir(p));
        const done = statuses.length === 2 && statuses.every((s) => s === "completed");
        if (done && heard(request).includes("PONG-42")) {
          runningBeforeDelete = teammateProcesses();
          return reply().tool("TeamDelete", {});
        }
        return reply().text("Waiting for the team.");
      }
      return reply().text("The team is done.");
    });
    const run = await runScriptedCli(
      server,
      p,
      [
        "-p",
        "Run the team",
        "--teammate-mode",
        "process",
        "--permission-mode",
        "acceptEdits",
        "--disallowedTools",
        "Bash(rm:*)",
      ],
      TEAMS,
    );
    const lines = jsonLines(run.stdout);
    const sessionId = String(lines[0]?.session_id);
    expect(run.code, run.stderr).toBe(0);
    expect(lines.at(-1)).toMatchObject({ type: "result", result: "The team is done." });
    // Both worked in processes of their own, both were running until TeamDelete, none after it.
    expect(runningBeforeDelete).toHaveLength(2);
    expect(teammateProcesses()).toEqual([]);
    expect(readFileSync(join(p.cwd, "alice.txt"), "utf8")).toBe("alice was here\n");
    expect(readFileSync(join(p.cwd, "bob.txt"), "utf8")).toBe("bob was here\n");
    // The lead's message reached alice; her answer reached the lead.
    expect(seenBy.alice).toContain("PING-42: answer me");
    const requests = server.requests.slice(firstRequest);
    const lastLead = requests.filter((r) => whoAsks(r) === "lead").at(-1) as RecordedRequest;
    expect(heard(lastLead)).toContain('<teammate-message teammate_id="alice" summary="pong">');
    expect(heard(lastLead)).toContain("Stopped teammates that were still running: alice, bob");
    // The lead's deny rule held in bob's process; alice's ask followed the lead's headless policy.
    expect(seenBy.bob).toMatch(/denied/i);
    expect(existsSync(join(p.cwd, "alice.txt"))).toBe(true);
    expect(seenBy.alice).toContain("nobody can approve it in this non-interactive session");
    // Their refused calls are the lead's to list, as an in-process teammate's are.
    const denials = (lines.at(-1)?.permission_denials ?? []) as Array<{
      tool_name: string;
      tool_input: { command?: string };
    }>;
    const refused = denials
      .filter((denial) => denial.tool_name === "Bash")
      .map((denial) => denial.tool_input.command)
      .sort();
    expect(refused).toEqual(["curl -s http://127.0.0.1:9/", "rm -f alice.txt"]);
    // Their sidechains are the lead session's, with their ends recorded.
    const subagents = join(p.home, "projects", projectSlug(p.cwd), sessionId, "subagents");
    const ends = readdirSync(subagents).map((file) =>
      readFileSync(join(subagents, file), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((entry) => entry.type === "agent_result"),
    );
    expect(ends.map((end) => end?.name).sort()).toEqual(["alice", "bob"]);
    // The teammates' spending is in the lead's: every request of the run (10 input tokens each) counted once.
    const modelUsage = lines.at(-1)?.modelUsage as Record<string, { inputTokens: number }>;
    const counted = Object.values(modelUsage).reduce((sum, entry) => sum + entry.inputTokens, 0);
    expect(requests.filter((r) => whoAsks(r) !== "lead").length).toBeGreaterThan(8);
    expect(counted).toBe(10 * requests.length);
  }, 120_000);

  it("leaves no teammate, nor a command a teammate started, when the lead is killed with SIGKILL", async () => {
    const p = cliProject("teammate-kill");
    const marker = "sleep 38.25";
    let aliveAtKill = { teammates: 0, commands: 0 };
    let lead: { kill(signal: NodeJS.Signals): boolean } | undefined;
    server.respondWith((request) => {
      const who = whoAsks(request);
      if (who === "alice") {
        return assistantTurns(request) === 0 ? reply().tool("Bash", { command: `echo start && ${marker}` }) : hang();
      }
      if (who === "bob") {
        // Bob's first request waits until alice's command runs, then the lead dies.
        return replyFrom(async () => {
          await until(() => processesWith(marker).length > 0);
          aliveAtKill = { teammates: teammateProcesses().length, commands: processesWith(marker).length };
          lead?.kill("SIGKILL");
          return hang();
        });
      }
      if (calls(request, "TeamCreate") === 0) return reply().tool("TeamCreate", { team_name: "crew" });
      if (calls(request, "Agent") === 0)
        return reply()
          .tool("Agent", { team_name: "crew", name: "alice", description: "alice", prompt: "Sleep." })
          .tool("Agent", { team_name: "crew", name: "bob", description: "bob", prompt: "Wait." });
      return reply().text("Waiting.");
    });
    const run = await runScriptedCli(
      server,
      p,
      ["-p", "Start the team", "--teammate-mode", "process", "--allowedTools", "Bash(echo:*)", "Bash(sleep:*)"],
      TEAMS,
      {
        onStdout: (_chunk, child) => {
          lead = child;
        },
      },
    );
    expect(run.signal).toBe("SIGKILL");
    expect(aliveAtKill.teammates).toBe(2);
    expect(aliveAtKill.commands).toBeGreaterThan(0);
    // The lead's watcher kills the teammates' groups; each teammate's own watcher its commands.
    expect(await until(() => teammateProcesses().length === 0 && processesWith(marker).length === 0)).toBe(true);
  }, 120_000);
});
