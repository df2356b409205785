// The tools that need a person (AskUserQuestion, ExitPlanMode) and who answers them. In an
// interactive session a person answers through the permission prompt; a library can answer with
// these callbacks instead (createSession's `userDialog` option). With neither, the tools tell the
// model to go on by itself.
import type { PermissionMode } from "./permission-types.js";

export interface UserQuestionOption {
  label: string;
  description: string;
}

export interface UserQuestion {
  question: string;
  /** A chip-sized label for the question (at most 12 characters). */
  header: string;
  options: UserQuestionOption[];
  multiSelect: boolean;
}

/** The answer to each question, keyed by the question's text: the chosen label(s) or free text. */
export type UserQuestionAnswers = Record<string, string | string[]>;

/** A Bash permission the implementation of a plan will need (`prompt` is a rule, e.g. `npm test:*`). */
export interface AllowedPrompt {
  tool: "Bash";
  prompt: string;
}

export interface PlanApprovalRequest {
  /** The plan file's text. */
  plan: string;
  planFilePath: string;
  allowedPrompts: AllowedPrompt[];
  /** The mode the session returns to once the plan is approved. */
  nextMode: PermissionMode;
}

export type PlanApproval =
  /** `allowedPrompts`: the permissions granted (default: all that were asked for). */
  { approved: true; allowedPrompts?: AllowedPrompt[] } | { approved: false; feedback?: string };

export interface UserDialog {
  /** Answers AskUserQuestion; undefined = the user declined to answer. */
  askUserQuestion?(questions: UserQuestion[], signal: AbortSignal): Promise<UserQuestionAnswers | undefined>;
  /** Approves or rejects a plan presented with ExitPlanMode. */
  approvePlan?(request: PlanApprovalRequest, signal: AbortSignal): Promise<PlanApproval>;
}
