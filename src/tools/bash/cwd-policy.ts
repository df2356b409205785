// Where the shell stands after a command. A `cd` inside the working directories carries over; a
// `cd` out of them does not (outside bypass mode): the next command would otherwise run, with its
// relative paths, in a place the user never opened to the agent.
import { isAbsolute, relative } from "node:path";
import { canonicalPath as canonical } from "../../fs/path-kind.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";

export function isInsideAny(path: string, directories: readonly string[]): boolean {
  const target = canonical(path);
  return directories.some((dir) => {
    const rel = relative(canonical(dir), target);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  });
}

export interface NewCwdInput {
  /** `pwd -P` as the command's shell reported it on exit, if it did. */
  reportedCwd?: string;
  previousCwd: string;
  sessionCwd: string;
  permissionContext: ToolPermissionContext;
}

export function resolveNewCwd(input: NewCwdInput): { cwd: string; note?: string } {
  const { reportedCwd, previousCwd, sessionCwd, permissionContext } = input;
  if (!reportedCwd || reportedCwd === previousCwd) return { cwd: previousCwd };
  if (permissionContext.mode === "bypassPermissions") return { cwd: reportedCwd };
  if (isInsideAny(reportedCwd, permissionContext.workingDirectories)) return { cwd: reportedCwd };
  return {
    cwd: sessionCwd,
    note: `Shell cwd was reset to ${sessionCwd}: ${reportedCwd} is outside the working directories, so the next command does not start there.`,
  };
}
