// The hooks a tool call passes through (PreToolUse before the permission check, PostToolUse after
// the call), as the contract sees them. Settings-configured commands implement this
// (src/hooks/hook-runner.ts); src/hooks/tool-hooks.ts runs them around each call.

/** A tool's parsed input (ToolInput in ./types.ts, spelt out here so this file imports nothing). */
type ToolInput = Record<string, unknown>;

/** What the PreToolUse hooks of one call said together (the strictest answer wins). */
export type PreToolUseResult =
  | { behavior: "deny"; message: string; hooks: string[] }
  | {
      behavior: "allow" | "ask" | "none";
      reason?: string;
      updatedInput?: ToolInput;
      additionalContext: string[];
      hooks: string[];
    };

export interface PostToolUseResult {
  /** Exit-2 stderr or `decision: "block"` reasons: feedback for the model about a call that already ran. */
  feedback: string[];
  additionalContext: string[];
  errors: string[];
}

export interface ToolCallHooks {
  /** Whether any hook is configured for the event (lets a call skip the hook step entirely). */
  has(event: "PreToolUse" | "PostToolUse"): boolean;
  preToolUse(
    toolName: string,
    toolInput: ToolInput,
    toolUseId: string,
    signal?: AbortSignal,
  ): Promise<PreToolUseResult>;
  postToolUse(
    toolName: string,
    toolInput: ToolInput,
    toolResponse: unknown,
    toolUseId: string,
    signal?: AbortSignal,
  ): Promise<PostToolUseResult>;
}
