import type { ToolResultBlock } from "../messages/types.js";
import type { PermissionResult } from "./permission-types.js";
import type { Tool, ToolInput } from "./types.js";

/** Methods buildTool() fills in when a definition leaves them out. */
type DefaultableKeys =
  | "isEnabled"
  | "isReadOnly"
  | "isConcurrencySafe"
  | "isDestructive"
  | "isOpenWorld"
  | "interruptBehavior"
  | "cancelsSiblingsOnError"
  | "requiresUserInteraction"
  | "checkPermissions"
  | "userFacingName"
  | "mapToolResult"
  | "toAutoClassifierInput"
  | "description"
  | "fileAccess"
  | "autoModeSafe";

export type ToolDef<Input extends ToolInput, Output, Progress> = Omit<
  Tool<Input, Output, Progress>,
  DefaultableKeys | "maxResultSizeChars"
> &
  Partial<Pick<Tool<Input, Output, Progress>, DefaultableKeys | "maxResultSizeChars">>;

/** Default result size before the system cap (see src/results). */
export const DEFAULT_TOOL_MAX_RESULT_SIZE_CHARS = 100_000;

export function defaultMapToolResult(output: unknown, toolUseId: string): ToolResultBlock {
  const content = typeof output === "string" ? output : JSON.stringify(output, null, 2);
  return { type: "tool_result", tool_use_id: toolUseId, content };
}

/**
 * Completes a tool definition with fail-closed defaults: a tool that says nothing about itself
 * is treated as writing (not read-only), serial (not concurrency-safe), blocking on interrupt,
 * judged call by call by the auto-mode classifier (not auto-mode safe), and without an opinion on
 * permission (passthrough, which the pipeline turns into ask unless a rule or mode allows). Claude Code's factory defaults checkPermissions to allow; we pick passthrough
 * so that a new tool cannot run unasked just because its author forgot a method.
 */
export function buildTool<Input extends ToolInput, Output, Progress = never>(
  def: ToolDef<Input, Output, Progress>,
): Tool<Input, Output, Progress> {
  assertToolDef(def);
  return {
    maxResultSizeChars: DEFAULT_TOOL_MAX_RESULT_SIZE_CHARS,
    isEnabled: () => true,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    isDestructive: () => false,
    isOpenWorld: () => false,
    interruptBehavior: () => "block",
    cancelsSiblingsOnError: false,
    requiresUserInteraction: () => false,
    // No file access of its own: only rules named after the tool itself govern it.
    fileAccess: undefined,
    // The auto-mode classifier judges every call unless the tool says it only looks.
    autoModeSafe: false,
    checkPermissions: async (): Promise<PermissionResult<Input>> => ({
      behavior: "passthrough",
      message: `${def.name} needs permission to run.`,
    }),
    userFacingName: () => def.name,
    mapToolResult: defaultMapToolResult,
    toAutoClassifierInput: () => "",
    description: async () => def.name,
    ...def,
  };
}

/**
 * The members with no default, checked when the tool is made: a definition from JavaScript (or a
 * cast) that lacks one failed only later, in the middle of a session, as "tool.prompt is not a
 * function", naming neither the tool nor what it lacked.
 */
function assertToolDef(def: unknown): void {
  const d = (typeof def === "object" && def !== null ? def : {}) as Record<string, unknown>;
  const name = typeof d.name === "string" && d.name.trim() !== "" ? d.name : undefined;
  const missing: string[] = [];
  if (name === undefined) missing.push("name (a non-empty string)");
  const schema = d.inputSchema as { safeParse?: unknown } | undefined;
  if (typeof schema?.safeParse !== "function") missing.push("inputSchema (a zod schema)");
  if (typeof d.prompt !== "function") missing.push("prompt() (the text the model reads about the tool)");
  if (typeof d.call !== "function") missing.push("call()");
  if (missing.length > 0) {
    throw new TypeError(`buildTool: the tool ${name === undefined ? "" : `"${name}" `}lacks ${missing.join(", ")}`);
  }
}
