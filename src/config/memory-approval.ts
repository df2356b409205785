// The user's answer, per project, to "this project's memory files import files from outside it:
// load them?" (Claude Code asks it once per project). Kept in ~/.warden/memory-imports.json, the
// user's own file: a repository cannot approve its own imports. A project is its real path.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../fs/atomic-write.js";
import { withFileLockSync } from "../fs/file-lock.js";
import { rootOf } from "./memory-boundary.js";
import { wardenHome } from "./paths.js";

export type ExternalImportsDecision = "approved" | "declined";

export function memoryApprovalPath(): string {
  return join(wardenHome(), "memory-imports.json");
}

function readDecisions(path: string): Record<string, ExternalImportsDecision> {
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as { projects?: unknown };
    const projects = parsed.projects;
    if (typeof projects !== "object" || projects === null) return {};
    const decisions: Record<string, ExternalImportsDecision> = {};
    for (const [project, value] of Object.entries(projects)) {
      if (value === "approved" || value === "declined") decisions[project] = value;
    }
    return decisions;
  } catch {
    // A file we cannot read approves nothing.
    return {};
  }
}

/** The user's answer for the project at `cwd`, or undefined when never asked. */
export function externalImportsDecision(cwd: string): ExternalImportsDecision | undefined {
  return readDecisions(memoryApprovalPath())[rootOf(cwd)];
}

/** Remembers the user's answer for the project at `cwd`. */
export function recordExternalImportsDecision(cwd: string, decision: ExternalImportsDecision): void {
  const path = memoryApprovalPath();
  withFileLockSync(`${path}.lock`, () => {
    const projects = { ...readDecisions(path), [rootOf(cwd)]: decision };
    writeFileAtomicSync(path, Buffer.from(`${JSON.stringify({ projects }, null, 2)}\n`, "utf8"));
  });
}
