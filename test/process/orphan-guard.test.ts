// A session's processes never outlive it, even when Warden itself is killed with SIGKILL (no
// exit handler runs then): shell commands with everything they started, and MCP stdio servers that
// would keep running after their stdin closes.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessAlive } from "../../src/process/process-group.js";
import { runCli } from "../cli/run-cli.js";
import { tempDir } from "../loop/helpers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(25);
  }
  return check();
}

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
});

describe("orphan guard", () => {
  it("kills a running command's whole process group when warden is killed with SIGKILL", async () => {
    const home = tempDir();
    const cwd = tempDir();
    // The command starts a background subshell and a foreground sleep; each would leave a file
    // behind two seconds later if it survived Warden.
    const command = `echo $$ > started; (sleep 2; touch from-background) & sleep 2; touch from-foreground`;
    const script = join(cwd, "script.jsonl");
    writeFileSync(
      script,
      `${JSON.stringify({ content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command } }] })}\n` +
        `${JSON.stringify({ content: [{ type: "text", text: "done" }] })}\n`,
    );
    const run = runCli(["-p", "go", "--model", `replay:${script}`, "--allowedTools", "Bash", "--cwd", cwd], {
      home,
      onStdout: () => {},
    });
    // Kill Warden as soon as the command is running.
    const pidFile = join(cwd, "started");
    let killed = false;
    const killer = (async () => {
      expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 15_000)).toBe(
        true,
      );
      const shellPid = Number(readFileSync(pidFile, "utf8").trim());
      started.push(shellPid);
      // The CLI's node process is the parent of the shell.
      const stat = readFileSync(`/proc/${shellPid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      process.kill(ppid, "SIGKILL");
      killed = true;
      return shellPid;
    })();
    const [result, shellPid] = await Promise.all([run, killer]);
    expect(killed).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    // The shell's group is gone at once, not after its commands finish.
    expect(await waitFor(() => !isProcessAlive(shellPid), 10_000)).toBe(true);
    await sleep(2_500);
    expect(existsSync(join(cwd, "from-background"))).toBe(false);
    expect(existsSync(join(cwd, "from-foreground"))).toBe(false);
  }, 30_000);

  it("kills an MCP stdio server that ignores the end of its stdin when warden is killed with SIGKILL", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const pidFile = join(cwd, "server.pid");
    // A "server" that records its pid and then sleeps, never answering and never reading stdin.
    const config = {
      mcpServers: { stubborn: { command: "sh", args: ["-c", `echo $$ > ${pidFile}; exec sleep 1000`] } },
    };
    const script = join(cwd, "script.jsonl");
    writeFileSync(script, `${JSON.stringify({ delay_ms: 20_000, content: [{ type: "text", text: "late" }] })}\n`);
    const run = runCli(
      ["-p", "go", "--model", `replay:${script}`, "--mcp-config", JSON.stringify(config), "--cwd", cwd],
      { home, env: { MCP_TIMEOUT: "20000" } },
    );
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 15_000)).toBe(true);
    const serverPid = Number(readFileSync(pidFile, "utf8").trim());
    started.push(serverPid);
    // No pause here: the server cannot start (and so cannot write its pid) before Warden has put it
    // on the guard's list (the gate in src/mcp/stdio-child.ts).
    const stat = readFileSync(`/proc/${serverPid}/stat`, "utf8");
    const wardenPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    process.kill(wardenPid, "SIGKILL");
    const result = await run;
    expect(result.signal).toBe("SIGKILL");
    expect(await waitFor(() => !isProcessAlive(serverPid), 10_000)).toBe(true);
  }, 30_000);
});
