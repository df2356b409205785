// TaskOutput (formerly BashOutput): the status and output of a background task, optionally after
// waiting for it to end.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import * as z from "zod";
import { backgroundTasks, withdrawNotice } from "../../tasks/registry.js";
import { buildTool } from "../../tool/build-tool.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import type { BackgroundTask, TaskStatus } from "../../tool/shell-state.js";
import { TASK_OUTPUT_PROMPT, TASK_OUTPUT_TOOL_NAME } from "./prompt.js";

/** Most of a task's output read into a result; the rest stays in the file. */
export const TASK_OUTPUT_READ_LIMIT_BYTES = 1024 * 1024;
const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;

const inputSchema = prebuiltInputSchema(TASK_OUTPUT_TOOL_NAME, () =>
  z.strictObject({
    task_id: z.string().min(1).describe("The id of the background task"),
    block: z.boolean().default(true).describe("Wait for the task to finish (up to timeout) before returning"),
    timeout: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MS)
      .default(DEFAULT_WAIT_MS)
      .describe("Longest wait in milliseconds when block is true"),
  }),
);

type TaskOutputInput = z.infer<typeof inputSchema>;

export interface TaskOutputResult {
  task_id: string;
  status: TaskStatus;
  command: string;
  exit_code: number | null;
  output: string;
  output_path: string;
  /** Bytes of output before the part shown (0 when all of it is shown). */
  omitted_bytes: number;
  /** True when block was set and the task was still running at the end of the wait. */
  wait_timed_out: boolean;
}

/** The task's output file, or its last TASK_OUTPUT_READ_LIMIT_BYTES when it is larger. */
export function readTaskOutput(
  path: string,
  limit = TASK_OUTPUT_READ_LIMIT_BYTES,
): { text: string; omittedBytes: number } {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - limit);
    const buffer = Buffer.alloc(size - start);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.subarray(0, read).toString("utf8"), omittedBytes: start };
  } finally {
    closeSync(fd);
  }
}

function render(result: TaskOutputResult): string {
  const lines = [`<task_id>${result.task_id}</task_id>`, `<status>${result.status}</status>`];
  if (result.exit_code !== null) lines.push(`<exit_code>${result.exit_code}</exit_code>`);
  if (result.wait_timed_out) lines.push("<note>The task is still running; the wait timed out.</note>");
  if (result.omitted_bytes > 0) {
    lines.push(
      `<note>Showing the last part of the output; the first ${result.omitted_bytes} bytes are in ${result.output_path}.</note>`,
    );
  }
  const body = result.output.replace(/\s+$/, "");
  lines.push(body.length ? `<output>\n${body}\n</output>` : "<output>(no output yet)</output>");
  return lines.join("\n");
}

function unknownTask(id: string, known: BackgroundTask[]): Error {
  const ids = known.map((task) => task.id);
  return new Error(
    `No background task with id "${id}".${ids.length ? ` Known tasks: ${ids.join(", ")}.` : " No background tasks were started in this session."}`,
  );
}

export const TaskOutputTool = buildTool<TaskOutputInput, TaskOutputResult>({
  name: TASK_OUTPUT_TOOL_NAME,
  aliases: ["BashOutput"],
  searchHint: "read background task command output status",
  maxResultSizeChars: 30_000,
  inputSchema,
  prompt: async () => TASK_OUTPUT_PROMPT,
  description: async () => "Read a background task's output",
  isReadOnly: () => true,
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  // Reading what the session's own background commands printed grants nothing new.
  checkPermissions: async () => ({ behavior: "allow" }),

  async validateInput(input, context) {
    const registry = backgroundTasks(context);
    if (!registry.get(input.task_id)) {
      return { result: false, message: unknownTask(input.task_id, registry.list()).message, errorCode: 1 };
    }
    return { result: true };
  },

  async call(input, context) {
    const registry = backgroundTasks(context);
    const task = input.block
      ? await registry.waitFor(input.task_id, input.timeout, context.abortController.signal)
      : registry.get(input.task_id);
    if (!task) throw unknownTask(input.task_id, registry.list());
    const { text, omittedBytes } = readTaskOutput(task.outputPath);
    if (task.status !== "running") withdrawNotice(context, task);
    return {
      data: {
        task_id: task.id,
        status: task.status,
        command: task.command,
        exit_code: task.exitCode ?? null,
        output: text,
        output_path: task.outputPath,
        omitted_bytes: omittedBytes,
        wait_timed_out: input.block && task.status === "running",
      },
    };
  },

  mapToolResult: (output, toolUseId) => ({ type: "tool_result", tool_use_id: toolUseId, content: render(output) }),
});
