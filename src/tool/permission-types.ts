// The vocabulary shared by tools (their own checkPermissions) and the permission engine.
// Tools only answer for their own input; the engine in src/permissions/ owns rules and modes.

export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk" | "auto";

export const PERMISSION_MODES: readonly PermissionMode[] = [
  "default",
  "acceptEdits",
  "plan",
  "bypassPermissions",
  "dontAsk",
  "auto",
];

export type PermissionBehavior = "allow" | "deny" | "ask";

/** Where a rule came from, lowest precedence first. */
export type PermissionRuleSource =
  | "userSettings"
  | "projectSettings"
  | "localSettings"
  | "cliArg"
  | "policySettings"
  | "session";

/** `Bash(git commit:*)` parses to { toolName: "Bash", ruleContent: "git commit:*" }. */
export interface PermissionRuleValue {
  toolName: string;
  ruleContent?: string;
}

export interface PermissionRule {
  source: PermissionRuleSource;
  behavior: PermissionBehavior;
  value: PermissionRuleValue;
  /** Settings file the rule was read from, when it came from a file. */
  file?: string;
  /** 1-based line of the rule in `file`, for messages that point the user at it. */
  line?: number;
  /**
   * Folder that `./` and `/` in a path rule are relative to: the project a settings file belongs
   * to, the home folder for user settings, the session's directory for CLI and session rules.
   */
  root?: string;
}

/**
 * What a call's PreToolUse hooks said about permission, handed to the engine with the call: allow
 * skips the prompt but never a deny rule or a bypass-immune ask; ask asks even where a rule allows.
 */
export interface PreToolUseHookDecision {
  behavior: "allow" | "ask";
  reason?: string;
  /** The hooks that said it, for the decision's reason. */
  hooks: string[];
}

/** Why a decision came out the way it did: shown in prompts, transcripts and to the model. */
export type PermissionDecisionReason =
  | { type: "rule"; rule: PermissionRule }
  | { type: "mode"; mode: PermissionMode }
  | { type: "safetyCheck"; reason: string }
  | {
      type: "tool";
      reason: string;
      /**
       * What lets a session with nobody to ask go ahead, when no allow rule should (a plan's
       * approval): the headless refusal gives this instead of a rule to add.
       */
      unattended?: string;
    }
  | { type: "hook"; hookName: string; reason?: string }
  | { type: "classifier"; classifier: string; reason: string }
  | { type: "subcommandResults"; reasons: Record<string, PermissionResult> }
  | { type: "other"; reason: string };

/** A change to the permission context a user can accept ("yes, and don't ask again for X"). */
export type PermissionUpdate =
  | {
      type: "addRules";
      behavior: PermissionBehavior;
      rules: PermissionRuleValue[];
      destination: PermissionUpdateDestination;
    }
  | { type: "addDirectories"; directories: string[]; destination: PermissionUpdateDestination }
  | { type: "setMode"; mode: PermissionMode; destination: PermissionUpdateDestination };

export type PermissionUpdateDestination = "userSettings" | "projectSettings" | "localSettings" | "session";

export interface PermissionAllow<Input = Record<string, unknown>> {
  behavior: "allow";
  updatedInput?: Input;
  decisionReason?: PermissionDecisionReason;
}

/** A change to a file's text that an ask is about, for the prompt to show as a diff. */
export interface EditPreview {
  filePath: string;
  oldText: string;
  newText: string;
  /** The line of the file where oldText starts. */
  firstLine: number;
}

export interface PermissionAsk<Input = Record<string, unknown>> {
  behavior: "ask";
  message: string;
  updatedInput?: Input;
  /** The edit the call would make when its input does not show it (an in-place sed). */
  editPreview?: EditPreview;
  decisionReason?: PermissionDecisionReason;
  suggestions?: PermissionUpdate[];
}

export interface PermissionDeny {
  behavior: "deny";
  message: string;
  decisionReason: PermissionDecisionReason;
  /**
   * Whoever refused also stopped the turn (an SDK's canUseTool or a PermissionRequest hook answering
   * `interrupt: true`): the call keeps this refusal as its result, then the turn ends as at Esc.
   */
  interrupt?: boolean;
}

/** "I have no opinion": becomes ask at the end of the pipeline unless a mode or rule allows. */
export interface PermissionPassthrough {
  behavior: "passthrough";
  message: string;
  decisionReason?: PermissionDecisionReason;
  suggestions?: PermissionUpdate[];
}

export type PermissionResult<Input = Record<string, unknown>> =
  | PermissionAllow<Input>
  | PermissionAsk<Input>
  | PermissionDeny
  | PermissionPassthrough;

/** The final word after ask handling: a tool runs only on allow. */
export type PermissionDecision<Input = Record<string, unknown>> =
  | PermissionAllow<Input>
  | PermissionAsk<Input>
  | PermissionDeny;

export interface RulesByBehavior {
  allow: PermissionRule[];
  deny: PermissionRule[];
  ask: PermissionRule[];
}

/** Everything a tool's checkPermissions may consult. Immutable: updates make a new one. */
export interface ToolPermissionContext {
  mode: PermissionMode;
  /** The session's working directory first, then --add-dir and settings additionalDirectories. */
  workingDirectories: string[];
  rules: RulesByBehavior;
  /** True only when the session was started with the explicit bypass flag. */
  isBypassPermissionsModeAvailable: boolean;
  /** Set by settings `allowManagedPermissionRulesOnly`: only policy rules count. */
  managedRulesOnly?: boolean;
  /**
   * The session's plan file (in its own folder, outside the working directories): the one file
   * the file tools may write in plan mode, and may always read and write without asking.
   */
  planFilePath?: string;
  /**
   * Folders this session's writes never reach without asking, even in bypass mode, outside its
   * working directories: an isolated agent's parent checkout, which holds the agent's worktree
   * (src/tools/agent/isolation.ts). The file tools already ask for any write outside the working
   * directories; this holds a shell to the same.
   */
  confinedFrom?: string[];
}

export function emptyPermissionContext(cwd: string, mode: PermissionMode = "default"): ToolPermissionContext {
  return {
    mode,
    workingDirectories: [cwd],
    rules: { allow: [], deny: [], ask: [] },
    isBypassPermissionsModeAvailable: mode === "bypassPermissions",
  };
}
