// Denials of the session: every refused call is kept (for the headless result and the transcript),
// and the auto-mode classifier's refusals are counted for its circuit breaker. A classifier that
// keeps saying no is either wrong or being pushed against; either way a human should decide.
import type { PermissionDecisionReason } from "../../tool/permission-types.js";
import type { ToolInput } from "../../tool/types.js";

export const MAX_CONSECUTIVE_CLASSIFIER_DENIALS = 3;
export const MAX_TOTAL_CLASSIFIER_DENIALS = 20;

export interface DenialEntry {
  toolName: string;
  toolUseId: string;
  input: ToolInput;
  message: string;
  reason?: PermissionDecisionReason;
}

export class DenialTracker {
  readonly denials: DenialEntry[] = [];
  private consecutiveClassifierDenials = 0;
  private totalClassifierDenials = 0;

  recordDenial(entry: DenialEntry): void {
    this.denials.push(entry);
    if (entry.reason?.type === "classifier") {
      this.consecutiveClassifierDenials++;
      this.totalClassifierDenials++;
    }
  }

  /** Any call that went through resets the run of refusals (not the total). */
  recordAllow(): void {
    this.consecutiveClassifierDenials = 0;
  }

  get classifierDenials(): { consecutive: number; total: number } {
    return { consecutive: this.consecutiveClassifierDenials, total: this.totalClassifierDenials };
  }

  /** The breaker: after 3 refusals in a row or 20 in all, the classifier no longer decides. */
  get classifierTripped(): boolean {
    return (
      this.consecutiveClassifierDenials >= MAX_CONSECUTIVE_CLASSIFIER_DENIALS ||
      this.totalClassifierDenials >= MAX_TOTAL_CLASSIFIER_DENIALS
    );
  }
}
