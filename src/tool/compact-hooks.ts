// The hooks around a compaction, as the loop sees them (settings-configured commands implement
// them: src/hooks/hook-runner.ts). PreCompact runs before the summary is asked for and may add
// instructions for it, or block it; PostCompact runs after, with the summary; SessionStart hooks
// with source "compact" run last and may add context for the model, as after a fresh start.

export type CompactTrigger = "auto" | "manual";

export interface PreCompactResult {
  /** Set when a hook refused the compaction (exit code 2 or `decision: "block"`), with its reason. */
  blocked?: string;
  /** Extra instructions for the summary (a hook's plain stdout). */
  instructions: string[];
  errors: string[];
}

export interface CompactHooks {
  has(event: "PreCompact" | "PostCompact" | "SessionStart"): boolean;
  preCompact(
    trigger: CompactTrigger,
    customInstructions: string | undefined,
    signal?: AbortSignal,
  ): Promise<PreCompactResult>;
  postCompact(trigger: CompactTrigger, summary: string, signal?: AbortSignal): Promise<{ errors: string[] }>;
  sessionStart(source: "compact", signal?: AbortSignal): Promise<{ additionalContext: string[]; errors: string[] }>;
}
