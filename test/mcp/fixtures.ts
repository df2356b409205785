// Starting the fixture MCP servers (test/fixtures/mcp-servers) as real child processes.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { type McpServerEntry, parseServerConfig } from "../../src/mcp/config.js";
import { BUILT_CLI, builtFixture, type FixtureSource, REPO_ROOT } from "../helpers/built.js";

export { BUILT_CLI, REPO_ROOT };

/** The fixture servers in test/fixtures/mcp-servers, by file name. */
type McpFixture = FixtureSource extends infer S
  ? S extends `fixtures/mcp-servers/${infer File}`
    ? File
    : never
  : never;

/** A fixture server's compiled module (absolute, so it starts from any working directory). */
export function fixturePath(file: McpFixture): string {
  return builtFixture(`fixtures/mcp-servers/${file}`);
}

/** The `mcpServers` entry that runs a fixture over stdio. */
export function stdioServerConfig(file: McpFixture, ...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [fixturePath(file), ...args] };
}

export function entry(name: string, raw: unknown, env: NodeJS.ProcessEnv = process.env): McpServerEntry {
  const parsed = parseServerConfig(name, raw, "cli", "test", env);
  if (!parsed.config) throw new Error(`bad fixture config: ${parsed.problem}`);
  return parsed;
}

export interface HttpFixture {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs the demo server over streamable HTTP (`--http`) or SSE (`--sse`) and waits for its port. */
export async function startHttpFixture(flag: "--http" | "--sse", fixedPort = 0): Promise<HttpFixture> {
  const child = spawn(process.execPath, [fixturePath("demo-server.ts"), flag, String(fixedPort)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolvePort, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /PORT (\d+)/.exec(seen);
      if (match) resolvePort(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`fixture exited with ${code} before listening`)));
  });
  return {
    port,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Live processes whose parent is this process (Linux /proc): what would be orphaned. The orphan
 * guard's watcher (src/process/orphan-guard.ts) is left out: it is meant to live as long as this
 * process, started by whichever test first guards a child.
 */
export function childPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Field 4 (ppid) comes after the parenthesised command, which may itself hold spaces.
      const afterComm = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const state = afterComm[0];
      if (Number(afterComm[1]) !== process.pid || state === "Z") continue;
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").startsWith("/bin/sh\0-c\0trap '' INT HUP TERM QUIT")) continue;
      pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
