// Bash tool execution costs, measured through the real single-call path: the overhead of one
// command (a fresh shell per call, cwd capture, process group), the extra cost of the bubblewrap
// sandbox, how fast output is collected, and how quickly a background task hands back its id.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { ToolResultBlock } from "../src/messages/types.js";
import { runToolUse } from "../src/orchestration/run-tool-use.js";
import { probeBubblewrap, type SandboxSettings } from "../src/shell/sandbox/index.js";
import { createToolUseContext } from "../src/tool/context.js";
import { emptyPermissionContext } from "../src/tool/permission-types.js";
import type { CanUseTool, ToolUseContext } from "../src/tool/types.js";
import { BashTool } from "../src/tools/bash/tool.js";
import type { BenchRow } from "./run.js";

const allowAll: CanUseTool = async (_tool, input) => ({ behavior: "allow", updatedInput: input });

function contextFor(project: string, sessionDir: string, sandboxSettings?: SandboxSettings): ToolUseContext {
  return createToolUseContext({
    options: {
      tools: [BashTool],
      model: "bench:x",
      cwd: project,
      sessionId: "bench",
      sessionDir,
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: emptyPermissionContext(project), sandboxSettings },
  });
}

let callId = 0;
async function bash(context: ToolUseContext, input: Record<string, unknown>): Promise<ToolResultBlock> {
  callId += 1;
  const outcome = await runToolUse(
    { type: "tool_use", id: `b${callId}`, name: "Bash", input },
    context,
    allowAll,
    undefined,
  );
  if (outcome.result.is_error)
    throw new Error(`bench command failed: ${JSON.stringify(outcome.result.content).slice(0, 300)}`);
  return outcome.result;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function latencies(context: ToolUseContext, command: string, runs: number): Promise<number[]> {
  await bash(context, { command }); // warm-up: environment snapshot, first spawn
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await bash(context, { command });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export default async function bashRunBench(): Promise<BenchRow[]> {
  const root = await mkdtemp(join(tmpdir(), "warden-bench-bash-"));
  const project = join(root, "project");
  const sessionDir = join(root, "session");
  await mkdir(project);
  await mkdir(sessionDir);
  const rows: BenchRow[] = [];
  try {
    const plain = contextFor(project, sessionDir);
    const runs = 60;
    const times = await latencies(plain, "true", runs);
    rows.push({
      name: "Bash `true` round trip, median",
      value: percentile(times, 50),
      unit: "ms",
      note: `${runs} runs`,
    });
    rows.push({ name: "Bash `true` round trip, p99", value: percentile(times, 99), unit: "ms" });

    const availability = await probeBubblewrap();
    if (availability.available) {
      const sandboxed = contextFor(project, sessionDir, { enabled: true });
      const boxed = await latencies(sandboxed, "true", runs);
      rows.push({ name: "Bash `true` in the bwrap sandbox, median", value: percentile(boxed, 50), unit: "ms" });
      rows.push({ name: "Bash `true` in the bwrap sandbox, p99", value: percentile(boxed, 99), unit: "ms" });
    } else {
      rows.push({ name: "Bash in the bwrap sandbox", value: 0, unit: "ms", note: `skipped: ${availability.reason}` });
    }

    for (const [label, bytes] of [
      ["output collection (3 MiB, in memory), median of 5", 3 * 1024 * 1024],
      ["output collection (32 MiB, spilled to disk), median of 5", 32 * 1024 * 1024],
    ] as const) {
      const rates: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await bash(plain, { command: `head -c ${bytes} /dev/zero | tr '\\0' 'x'` });
        rates.push(bytes / 1024 / 1024 / ((performance.now() - started) / 1000));
      }
      rows.push({
        name: label,
        value: percentile(
          rates.sort((a, b) => a - b),
          50,
        ),
        unit: "MiB/s",
      });
    }

    const backgroundTimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await bash(plain, { command: "sleep 30", run_in_background: true });
      backgroundTimes.push(performance.now() - t0);
    }
    backgroundTimes.sort((a, b) => a - b);
    rows.push({
      name: "background start (task id returned), median",
      value: percentile(backgroundTimes, 50),
      unit: "ms",
    });
    await plain.getAppState().backgroundTasks?.stopAll();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return rows;
}
