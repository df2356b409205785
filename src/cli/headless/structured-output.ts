// `warden -p --json-schema SCHEMA`: the schema read (inline JSON or a file) and compiled before the
// session starts, so a bad one is a usage error; the StructuredOutput tool joins the pool; and a
// run whose model ended without a valid call is sent back to make it, a bounded number of times.
import { readFile } from "node:fs/promises";
import type { QueryEvent, TerminalEvent } from "../../loop/events.js";
import type { SessionEngine } from "../../loop/session.js";
import { addUsage } from "../../messages/types.js";
import type { AppState } from "../../tool/app-state.js";
import { wrapSystemReminder } from "../../tool/attachments.js";
import type { AnyTool, JSONSchema } from "../../tool/types.js";

/** Times a run is sent back to call StructuredOutput after ending without a valid call. */
export const MAX_STRUCTURED_OUTPUT_NUDGES = 3;

export interface StructuredOutputSetup {
  tool: AnyTool;
  /** What the model is told when it ended without a valid call. */
  nudge: string;
  /** Mismatched calls after which it is not sent back again. */
  maxAttempts: number;
}

/** Reads and compiles the schema; throws an Error whose message says what is wrong. */
export async function setUpStructuredOutput(option: string): Promise<StructuredOutputSetup> {
  const inline = option.trimStart().startsWith("{");
  let text = option;
  if (!inline) {
    try {
      text = await readFile(option, "utf8");
    } catch (error) {
      throw new Error(
        `--json-schema: cannot read ${option}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    const where = inline ? "the inline schema" : option;
    throw new Error(`--json-schema: ${where} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new Error("--json-schema: a JSON schema must be a JSON object");
  }
  const { compileOutputCheck } = await import("../../tools/structured-output/schema-check.js");
  const { createStructuredOutputTool, MAX_STRUCTURED_OUTPUT_ATTEMPTS } = await import(
    "../../tools/structured-output/tool.js"
  );
  const { STRUCTURED_OUTPUT_NUDGE } = await import("../../tools/structured-output/prompt.js");
  let check: Awaited<ReturnType<typeof compileOutputCheck>>;
  try {
    check = await compileOutputCheck(schema as JSONSchema);
  } catch (error) {
    throw new Error(`--json-schema: ${(error as Error).message}`);
  }
  return {
    tool: createStructuredOutputTool(schema as JSONSchema, check),
    nudge: wrapSystemReminder(STRUCTURED_OUTPUT_NUDGE),
    maxAttempts: MAX_STRUCTURED_OUTPUT_ATTEMPTS,
  };
}

/** What the run's answer is, for the result line. */
export function structuredOutputOf(state: AppState): { data: unknown } | undefined {
  return state.structuredOutput?.value;
}

/** Whether to send the model back once more: it ended without a valid call and has tries left. */
export function shouldNudge(state: AppState, setup: StructuredOutputSetup, nudgesSoFar: number): boolean {
  if (state.structuredOutput?.value !== undefined) return false;
  if ((state.structuredOutput?.failedAttempts ?? 0) >= setup.maxAttempts) return false;
  return nudgesSoFar < MAX_STRUCTURED_OUTPUT_NUDGES;
}

/**
 * A prompt's events and, for a --json-schema run, those of each time the model is sent back to
 * call StructuredOutput: one run to its caller. Its single terminal event counts every model
 * request and all their usage; the nudges spend only what is left of --max-turns (none left: the
 * run ends at its turn limit, never past it).
 */
export async function* withStructuredOutput(
  prompt: AsyncIterable<QueryEvent>,
  session: Pick<SessionEngine, "getAppState" | "submitMessage">,
  structured: StructuredOutputSetup | undefined,
  maxTurns: number | undefined,
): AsyncGenerator<QueryEvent, void> {
  let total: TerminalEvent | undefined;
  const take = (terminal: TerminalEvent) => {
    total = total
      ? { ...terminal, turnCount: total.turnCount + terminal.turnCount, usage: addUsage(total.usage, terminal.usage) }
      : terminal;
  };
  for await (const event of prompt) {
    if (event.type === "terminal") take(event);
    else yield event;
  }
  for (let nudges = 0; structured && total?.reason === "completed"; nudges++) {
    if (!shouldNudge(session.getAppState(), structured, nudges)) break;
    const left = maxTurns === undefined ? undefined : maxTurns - total.turnCount;
    if (left !== undefined && left <= 0) {
      total = { ...total, reason: "max_turns" };
      break;
    }
    for await (const event of session.submitMessage(structured.nudge, left === undefined ? {} : { maxTurns: left })) {
      if (event.type === "terminal") take(event);
      else yield event;
    }
  }
  if (total) yield total;
}
