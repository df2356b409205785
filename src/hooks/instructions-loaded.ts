// InstructionsLoaded (Claude Code's hooks reference): a memory file (CLAUDE.md and its imports) or
// a rule file reached the model's context. For watching and logging only: nothing waits on the
// hooks and nothing they say changes what was loaded. Matcher: the load reason.
import type { MemoryFile } from "../config/memory.js";
import type { InstructionsLoadedInput, ToolCallHooks } from "../tool/tool-call-hooks.js";

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
      // An imported file is loaded because another one names it.
      load_reason: file.importedFrom !== undefined ? "include" : reason,
      ...(file.paths && { globs: file.paths }),
      ...(triggerFilePath !== undefined && { trigger_file_path: triggerFilePath }),
      ...(file.importedFrom !== undefined && { parent_file_path: file.importedFrom }),
    });
  }
}
