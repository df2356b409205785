// The rules of a SessionSpec that need no schema library: the names its enumerations take, and the
// combinations that cannot work. The schema (./spec.ts) applies them to every front end's spec;
// the command line's parser applies them to the spec it builds without loading the schema, since
// a zod object's first parse compiles its parser (~15-20 ms measured here), a cost headless
// start-up would pay on every run for values the parser has already checked one by one.

export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];
export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const INPUT_FORMATS = ["text", "stream-json"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** The fields the combination rules read. */
export interface SpecCombination {
  resume?: string | undefined;
  continueLatest: boolean;
  forkSession: boolean;
  sessionId?: string | undefined;
  inputFormat: InputFormat;
  outputFormat: OutputFormat;
  permissionPromptTool?: string | undefined;
}

/** Whether a `--permission-prompt-tool` value names an MCP tool (the other value is "stdio"). */
export function isMcpPromptToolName(name: string): boolean {
  return /^mcp__[^_].*__.+$/.test(name);
}

/** The first combination that cannot work, named by the flags a command line would have used. */
export function combinationProblem(spec: SpecCombination): string | undefined {
  if (spec.resume !== undefined && spec.continueLatest) return "use either --resume or --continue, not both";
  if (spec.inputFormat === "stream-json" && spec.outputFormat !== "stream-json") {
    return "--input-format stream-json needs --output-format stream-json";
  }
  if (spec.permissionPromptTool === "stdio" && spec.inputFormat !== "stream-json") {
    return "--permission-prompt-tool stdio needs --input-format stream-json";
  }
  const resuming = spec.resume !== undefined || spec.continueLatest;
  if (spec.sessionId !== undefined && resuming && !spec.forkSession) {
    return "--session-id with --resume or --continue needs --fork-session";
  }
  if (spec.forkSession && !resuming) return "--fork-session needs --resume or --continue";
  return undefined;
}
