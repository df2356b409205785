// Which memory files the model may see: a deny rule that would refuse Read on a file keeps it out
// of the memory too (a CLAUDE.md, or a file one of them imports with `@path`), so an import cannot
// carry a file past the rules. Shared by the system prompt, subagents and the nested-memory reminder.
import type { MemoryFile } from "../config/memory.js";
import type { ToolPermissionContext } from "../tool/permission-types.js";
import type { AnyTool } from "../tool/types.js";

export async function readableMemoryFiles(
  files: readonly MemoryFile[],
  permissions: ToolPermissionContext,
  pool: readonly AnyTool[],
): Promise<MemoryFile[]> {
  if (!permissions.rules.deny.some((rule) => rule.value.ruleContent !== undefined)) return [...files];
  // Loaded only when a deny rule with a path could match: most sessions never pay for it here.
  const { checkReadPermission } = await import("../permissions/filesystem/index.js");
  // Judged on the name and on where it leads: a deny rule on either keeps the file out.
  return files.filter((file) =>
    [file.path, file.realPath].every(
      (path) => checkReadPermission("Read", path, permissions, pool).behavior !== "deny",
    ),
  );
}
