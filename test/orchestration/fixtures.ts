// Test tools made with the real buildTool, and a real context: only the scheduling under test
// decides when they run. Each tool records when it started and ended (performance.now()), so
// overlap is proven by timestamps, never by how long a test took.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import type { ToolResultBlock, ToolUseBlock } from "../../src/messages/types.js";
import type { ToolExecutionUpdate } from "../../src/orchestration/streaming-executor.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool, CanUseTool, InterruptBehavior, ToolUseContext } from "../../src/tool/types.js";

export interface CallRecord {
  id: string;
  start: number;
  end?: number;
  /** True when the tool saw its abort signal fire. */
  aborted?: boolean;
}

export class CallLog {
  readonly records = new Map<string, CallRecord>();
  started(id: string): void {
    this.records.set(id, { id, start: performance.now() });
  }
  ended(id: string, aborted = false): void {
    const record = this.records.get(id);
    if (record) {
      record.end = performance.now();
      record.aborted = aborted;
    }
  }
  get(id: string): CallRecord {
    const record = this.records.get(id);
    if (!record) throw new Error(`call ${id} never started`);
    return record;
  }
  has(id: string): boolean {
    return this.records.has(id);
  }
}

const sleepInput = z.object({
  ms: z.number().default(10),
  fail: z.boolean().default(false),
  output: z.string().optional(),
  /** Makes the tool's own isConcurrencySafe say no for this input (Bash-like judgement). */
  writes: z.boolean().default(false),
});
type SleepInput = z.infer<typeof sleepInput>;

/** Sleeps `ms`, honouring the abort signal, then returns `output` (or "done <id>") or throws. */
function sleepCall(log: CallLog) {
  return async (args: SleepInput, context: ToolUseContext) => {
    const id = context.toolUseId ?? "?";
    log.started(id);
    const signal = context.abortController.signal;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, args.ms);
      signal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          log.ended(id, true);
          reject(new Error("aborted"));
        },
        { once: true },
      );
    });
    log.ended(id);
    if (args.fail) throw new Error(`${id} failed on purpose`);
    return { data: args.output ?? `done ${id}` };
  };
}

export interface SleepToolOptions {
  name: string;
  safe: boolean;
  interrupt?: InterruptBehavior;
  maxResultSizeChars?: number;
  cancelsSiblingsOnError?: boolean;
}

export function sleepTool(log: CallLog, options: SleepToolOptions): AnyTool {
  return buildTool({
    name: options.name,
    inputSchema: sleepInput,
    maxResultSizeChars: options.maxResultSizeChars,
    prompt: async () => `${options.name} sleeps`,
    isConcurrencySafe: (input: SleepInput) => options.safe && !input.writes,
    isReadOnly: () => options.safe,
    interruptBehavior: () => options.interrupt ?? "block",
    cancelsSiblingsOnError: options.cancelsSiblingsOnError ?? false,
    call: sleepCall(log),
  });
}

/** The pool most tests use: Safe/Unsafe sleepers, Cancel/Block interrupt kinds, Bash and Read stand-ins. */
export function standardTools(log: CallLog): AnyTool[] {
  return [
    sleepTool(log, { name: "Safe", safe: true, interrupt: "cancel" }),
    sleepTool(log, { name: "Unsafe", safe: false }),
    sleepTool(log, { name: "CancelSafe", safe: true, interrupt: "cancel" }),
    sleepTool(log, { name: "BlockSafe", safe: true, interrupt: "block" }),
    sleepTool(log, { name: "CancelUnsafe", safe: false, interrupt: "cancel" }),
    sleepTool(log, {
      name: "Bash",
      safe: true,
      interrupt: "cancel",
      maxResultSizeChars: 30_000,
      cancelsSiblingsOnError: true,
    }),
    sleepTool(log, { name: "Read", safe: true, interrupt: "cancel", maxResultSizeChars: Number.POSITIVE_INFINITY }),
    sleepTool(log, { name: "Grep", safe: true, interrupt: "cancel", maxResultSizeChars: 20_000 }),
  ];
}

export const allowAll: CanUseTool = async () => ({ behavior: "allow" });

export async function tempSessionDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "warden-orch-"));
}

export function makeContext(
  tools: AnyTool[],
  sessionDir: string,
  abortController = new AbortController(),
): ToolUseContext {
  return createToolUseContext({
    options: { tools, model: "replay:test", cwd: sessionDir, sessionId: "s", sessionDir, isNonInteractive: true },
    appState: { toolPermissionContext: emptyPermissionContext(sessionDir) },
    abortController,
  });
}

let nextId = 0;
export function call(name: string, input: Record<string, unknown> = {}, id = `tu_${++nextId}`): ToolUseBlock {
  return { type: "tool_use", id, name, input };
}

export async function collect(updates: AsyncIterable<ToolExecutionUpdate>): Promise<ToolExecutionUpdate[]> {
  const out: ToolExecutionUpdate[] = [];
  for await (const update of updates) out.push(update);
  return out;
}

export function resultsOf(updates: ToolExecutionUpdate[]): ToolResultBlock[] {
  return updates.flatMap((u) => (u.type === "result" ? [u.outcome.result] : []));
}

export function textOfResult(result: ToolResultBlock): string {
  return typeof result.content === "string" ? result.content : JSON.stringify(result.content);
}
