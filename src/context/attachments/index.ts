// The attachment kinds Warden has built in, and the registry that asks them before each request.
import type { AttachmentSource } from "../../tool/types.js";
import { autoModeSource } from "./auto-mode.js";
import { changedFilesSource } from "./changed-files.js";
import { dateChangeSource } from "./date-change.js";
import { type DeferredToolsView, deferredToolsDeltaSource, mcpInstructionsDeltaSource } from "./deltas.js";
import { hookContextSource } from "./hook-context.js";
import { nestedMemorySource } from "./nested-memory.js";
import { ruleFilesSource } from "./rule-files.js";
import { budgetUsdSource, tokenUsageSource } from "./usage-reminders.js";

export { diffSnippet } from "./changed-files.js";
export { isoDate } from "./date-change.js";
export type { DeferredToolsView } from "./deltas.js";
export { AttachmentRegistry } from "./registry.js";
export { USAGE_LEVELS } from "./usage-reminders.js";

export interface BuiltInAttachmentOptions {
  /** The date the system prompt states (YYYY-MM-DD). */
  startDate: string;
  /** What the request prefix knows of deferred tools. */
  deferredTools: DeferredToolsView;
}

/**
 * Fresh sources for one session (each keeps what it has told this session's model), in the order
 * their reminders go out: hook context first, as it answers what just happened.
 */
export function builtInAttachmentSources(options: BuiltInAttachmentOptions): AttachmentSource[] {
  return [
    hookContextSource(),
    changedFilesSource(),
    nestedMemorySource(),
    ruleFilesSource(),
    dateChangeSource(options.startDate),
    deferredToolsDeltaSource(options.deferredTools),
    mcpInstructionsDeltaSource(),
    tokenUsageSource(),
    budgetUsdSource(),
    autoModeSource(),
  ];
}
