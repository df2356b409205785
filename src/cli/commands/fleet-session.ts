// `warden fleet-session` (internal): a fleet worker's warm session process. The worker starts it
// before a job comes, so Node's start-up and the session's modules are paid while the worker
// waits rather than on the job's clock; the job's session then arrives as one JSON line on stdin
// ({"argv": [...], "input": "...", "cwd": "...", "env": {...}}) and runs exactly as `warden ARGV`
// with `input` on its stdin would (the session's spec: `--session-spec -`), in the process group
// and under the orphan guard the worker gave this process.
import { once } from "node:events";

interface WarmJob {
  argv: string[];
  /** What a fresh process would have read on stdin. */
  input?: string;
  cwd: string;
  env: Record<string, string | null>;
}

async function readJobLine(): Promise<WarmJob> {
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) {
    text += chunk as string;
    if (text.includes("\n")) break;
  }
  // Nothing else comes on stdin; the session must not wait on it.
  process.stdin.destroy();
  const line = text.slice(0, text.indexOf("\n") >= 0 ? text.indexOf("\n") : undefined).trim();
  if (line === "") throw new Error("fleet-session: no job arrived on stdin");
  const job = JSON.parse(line) as Partial<WarmJob>;
  if (!Array.isArray(job.argv) || typeof job.cwd !== "string" || typeof job.env !== "object" || job.env === null) {
    throw new Error("fleet-session: the job line needs argv, cwd and env");
  }
  if (job.input !== undefined && typeof job.input !== "string") throw new Error("fleet-session: input must be text");
  return job as WarmJob;
}

export async function run(): Promise<number> {
  // Loaded while nobody waits: the session command and what it loads first.
  const session = await import("./session.js");
  const job = await readJobLine();
  process.chdir(job.cwd);
  for (const [key, value] of Object.entries(job.env)) {
    if (value === null) delete process.env[key];
    else process.env[key] = value;
  }
  const code = await session.run(job.argv, job.input !== undefined ? { stdin: job.input } : {});
  // As a fresh process would: stdout flushed before the exit code is read.
  if (process.stdout.writableLength > 0) await once(process.stdout, "drain");
  return code;
}
