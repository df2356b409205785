// InstructionsLoaded (Claude Code's hooks reference): a memory file (CLAUDE.md and its imports) or
// a rule file reached the model's context. For watching and logging only: nothing waits on the
// hooks and nothing they say changes what was loaded. Matcher: the load reason.
import type { MemoryFile } from "../config/memory.js";
import type { InstructionsLoadedInput, ToolCallHooks } from "../tool/tool-call-hooks.js";
import type { AttachmentSource } from "../tool/types.js";

export type LoadReason = InstructionsLoadedInput["load_reason"];

const MEMORY_TYPE = { user: "User", project: "Project", local: "Local" } as const;

/** Runs the InstructionsLoaded hooks for each file, in the background. */
export function reportInstructionsLoaded(
  hooks: ToolCallHooks | undefined,
  files: ReadonlyArray<MemoryFile & { paths?: string[] }>,
  reason: LoadReason,
  triggerFilePath?: string,
): void {
  if (!hooks?.has("InstructionsLoaded")) return;
  for (const file of files) {
    void hooks.instructionsLoaded({
      file_path: file.path,
      memory_type: MEMORY_TYPE[file.scope],
      // An imported file is loaded because another one names it (and again, like all, after a compaction).
      load_reason: file.importedFrom !== undefined && reason !== "compact" ? "include" : reason,
      ...(file.paths && { globs: file.paths }),
      ...(triggerFilePath !== undefined && { trigger_file_path: triggerFilePath }),
      ...(file.importedFrom !== undefined && { parent_file_path: file.importedFrom }),
    });
  }
}

/**
 * The system prompt's memory files stay in the prompt through a compaction, but the model's
 * context starts again: Claude Code reports them again with the reason `compact`. A source that
 * adds nothing to the context, only that report.
 */
export function promptMemoryCompactionReport(files: () => readonly MemoryFile[]): AttachmentSource {
  return {
    kind: "prompt_memory_compaction",
    collect: () => undefined,
    afterCompaction({ context }) {
      reportInstructionsLoaded(context.getAppState().hooks, files(), "compact");
      return undefined;
    },
  };
}
