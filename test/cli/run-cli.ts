// Runs the real CLI, built (bin/warden.js, kept current by the global setup), as a child process
// with a private data folder.
import { spawn } from "node:child_process";
import { BUILT_CLI, builtFixture, REPO_ROOT } from "../helpers/built.js";

/** The Echo and WriteNote tools (test/cli/fixtures/test-tools.ts), compiled, for WARDEN_EXTRA_TOOLS. */
export const testToolsModule = builtFixture("cli/fixtures/test-tools.ts");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  home: string;
  /** The child's working directory (default: the repository root). */
  processCwd?: string;
  /** Text for stdin; when absent stdin is /dev/null. */
  input?: string;
  env?: Record<string, string>;
  /** Called with each stdout chunk as it arrives (to react to a line, e.g. send SIGINT). */
  onStdout?: (chunk: string, child: ReturnType<typeof spawn>) => void;
}

export function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && k !== "ANTHROPIC_API_KEY" && k !== "OPENAI_API_KEY") env[k] = v;
  }
  Object.assign(
    env,
    { WARDEN_HOME: options.home, HOME: options.home, WARDEN_EXTRA_TOOLS: testToolsModule },
    options.env,
  );
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: options.processCwd ?? REPO_ROOT,
    env,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  if (!child.stdout || !child.stderr) throw new Error("spawn gave no output pipes");
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    options.onStdout?.(chunk, child);
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
