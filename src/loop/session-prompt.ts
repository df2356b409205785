// The system prompt a session sends: the caller's own (a string or a builder) or the built-in one,
// with the memory files the permission rules let the model read. Read once per session: the
// prompt must not change under a running session (prompt-cache stability).
import { loadMemory, type MemoryFile } from "../config/memory.js";
import { readableMemoryFiles } from "../context/memory-access.js";
import type { ToolPermissionContext } from "../tool/permission-types.js";
import type { AnyTool } from "../tool/types.js";
import type { SystemPromptBuilder } from "./request-prefix.js";
import type { SessionEngineOptions } from "./session-options.js";
import { buildSystemPrompt, customSystemPrompt, findGitRoot } from "./system-prompt.js";

/** What the built-in prompt states about the session, besides its options. */
export interface SessionPromptFacts {
  cwd: string;
  /** The date the prompt states (the session's start). */
  startDate: string;
  modelLabel: string;
  /** The tool pool at creation: memory-file access is decided against it. */
  pool: readonly AnyTool[];
  permissionContext: ToolPermissionContext;
  /** The memory files the prompt holds, once read (InstructionsLoaded hooks hear of them). */
  onMemoryLoaded?: (files: readonly MemoryFile[]) => void;
}

/** What a session says when memory files named files outside the project that were not read. */
export function externalImportsNotice(skipped: readonly string[]): string {
  const shown = skipped.slice(0, 5).join(", ");
  const more = skipped.length > 5 ? ` and ${skipped.length - 5} more` : "";
  return (
    `memory files import ${skipped.length} file${skipped.length === 1 ? "" : "s"} from outside the project, not loaded: ` +
    `${shown}${more}. Approve this project's external imports in an interactive session to load them.`
  );
}

export function sessionSystemPrompt(
  options: Pick<
    SessionEngineOptions,
    "systemPrompt" | "customPromptContext" | "appendSystemPrompt" | "loadMemory" | "onMemoryNotice"
  >,
  facts: SessionPromptFacts,
): SystemPromptBuilder {
  const custom = options.systemPrompt;
  if (typeof custom === "string" && !options.customPromptContext) return async () => custom;
  if (custom !== undefined && typeof custom !== "string") return custom;
  const { cwd, permissionContext, pool } = facts;
  const loaded = options.loadMemory === false ? { files: [], externalSkipped: [] } : loadMemory(cwd);
  const memory = loaded.files;
  if (loaded.externalSkipped.length > 0) options.onMemoryNotice?.(externalImportsNotice(loaded.externalSkipped));
  const environment = {
    cwd,
    platform: process.platform,
    date: facts.startDate,
    gitRoot: findGitRoot(cwd),
    model: facts.modelLabel,
    additionalDirectories: permissionContext.workingDirectories.filter((d) => d !== cwd),
  };
  let allowed: Promise<MemoryFile[]> | undefined;
  return async (split) => {
    if (!allowed) {
      allowed = readableMemoryFiles(memory, permissionContext, pool);
      void allowed.then((files) => facts.onMemoryLoaded?.(files));
    }
    if (typeof custom === "string") return customSystemPrompt(custom, await allowed, options.appendSystemPrompt);
    return buildSystemPrompt({ environment, memory: await allowed, append: options.appendSystemPrompt }, split);
  };
}
