// The Bash tool's own say on a command, and the helpers the tool needs (read-only check for
// isReadOnly/isConcurrencySafe, the suggested rule prefix).

import { analyzeCommand, analyzeCommandWith, type ScriptAnalysis } from "../../shell/analysis/index.js";
import { loadedShellParser, loadShellParser, type Pace } from "../../shell/parse/index.js";
import {
  emptyPermissionContext,
  type PermissionResult,
  type ToolPermissionContext,
} from "../../tool/permission-types.js";
import { registerAnalysis } from "./analysis-registry.js";
import { decideBashPermission, decideWithoutAnalysis } from "./decide.js";
import { suggestedPrefixOf, suggestedPrefixOfText } from "./suggestions.js";

export { suggestedPrefixOfText } from "./suggestions.js";

export interface BashPermissionRequest {
  command: string;
  /** The shell's current directory (it may differ from the session's start directory after `cd`). */
  cwd: string;
  permissionContext: ToolPermissionContext;
  /**
   * Makes the command's analysis when the caller keeps it for its later steps (the Bash tool's
   * call memo, so call() reuses it); absent: the command is analysed here.
   */
  analyze?: () => Promise<ScriptAnalysis>;
}

/**
 * Longer commands are not analysed: some checks grow faster than linearly with the text, and a
 * command this size is not something a person can review in a prompt either.
 */
export const MAX_ANALYSED_COMMAND_LENGTH = 20_000;

export async function checkBashCommandPermission(request: BashPermissionRequest): Promise<PermissionResult> {
  if (request.command.length > MAX_ANALYSED_COMMAND_LENGTH) {
    const reason = `the command is ${request.command.length} characters long, more than the ${MAX_ANALYSED_COMMAND_LENGTH} that are analysed`;
    return decideWithoutAnalysis(request.command, request.permissionContext, reason);
  }
  try {
    const analysis = await (request.analyze?.() ?? analyzeCommand(request.command, request.cwd));
    return decideBashPermission(analysis, request.permissionContext);
  } catch (error) {
    // Whatever broke the analysis (nesting deep enough to exhaust the stack...), deny rules hold.
    const reason = `the command could not be analysed (${error instanceof Error ? error.message : String(error)})`;
    return decideWithoutAnalysis(request.command, request.permissionContext, reason);
  }
}

/** Loads the bash grammar ahead of time so the synchronous helpers below can answer. */
export function preloadBashAnalysis(pace?: Pace): Promise<void> {
  return loadShellParser(pace).then(() => undefined);
}

/**
 * True when every part of the command only reads (no rules consulted). Synchronous for the
 * tool's isReadOnly/isConcurrencySafe: before the grammar is loaded it answers false (fail closed).
 */
export function isReadOnlyCommand(command: string, cwd: string = process.cwd()): boolean {
  const parser = loadedShellParser();
  if (!parser) {
    // Start loading so later calls can answer; this one fails closed.
    loadShellParser().catch(() => undefined);
    return false;
  }
  if (command.length > MAX_ANALYSED_COMMAND_LENGTH) return false;
  try {
    const analysis = analyzeCommandWith(parser, command, cwd);
    // No rules and the default mode: only the command's own safety can make it "allow".
    return decideBashPermission(analysis, emptyPermissionContext(cwd)).behavior === "allow";
  } catch {
    return false;
  }
}

/** The rule prefix to offer for a command (`npm run`, `git commit`), or undefined when none is safe. */
export async function suggestedBashPrefix(command: string, cwd: string = process.cwd()): Promise<string | undefined> {
  try {
    const analysis = await analyzeCommand(command, cwd);
    const first = analysis.parts.find((p) => p.origin === "top");
    return first ? suggestedPrefixOf(first) : undefined;
  } catch {
    return suggestedPrefixOfText(command);
  }
}

registerAnalysis({ isReadOnlyCommand, isLoaded: () => loadedShellParser() !== undefined });
