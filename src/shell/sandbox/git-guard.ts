// What a sandboxed command must not leave for git to trust. git runs code a repository names: hooks
// (`hooks/`), `core.fsmonitor`, filters and the like in `config`. A command that plants a
// repository where git will look next (a `.git` folder or a `.git` file pointing elsewhere, or a
// bare repository: `HEAD`, `objects/` and `refs/` at the top of a folder) gets that code run
// outside the sandbox the next time the user or the agent runs git there. So at the top of the
// working folders, the other writable folders and the command's directory:
// - a `.git` that exists keeps its `config` and `hooks` read-only or not creatable (a `.git` file:
//   the file itself, so it cannot be pointed at another repository); one that does not exist
//   cannot be created
//   (an empty read-only folder stands in its place, which git passes over);
// - the folder itself cannot become a bare repository: an existing `HEAD` is read-only, and a
//   missing `HEAD`, `objects` or `refs` cannot be created (an empty read-only file stands there);
//   when it already is one (all three present), its `config` and `hooks` are read-only too.
// What stands in for a missing path is a mount point bwrap creates on the host; it is taken away
// again when the command is over (releaseMountPoints), unless something has filled it meanwhile.
// Folders below these tops are not covered: the permission engine asks before a git command whose
// repository would run something (permissions/bash/git-config-executors.ts).
import { lstatSync, readdirSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { HiddenPath } from "./read-deny.js";

/** What keeps git's trust safe at some folder tops: paths bound read-only, and paths blocked. */
export interface GitGuard {
  /** Existing paths bound read-only over themselves. */
  readOnly: string[];
  /** Missing paths whose creation is refused: an empty read-only file or folder stands there. */
  blocked: HiddenPath[];
}

type Kind = "file" | "directory" | "other" | undefined;

function kindOf(path: string): Kind {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() ? "directory" : stat.isFile() ? "file" : "other";
  } catch {
    return undefined;
  }
}

/**
 * What is really at `path`: a stand-in another command of this process still holds (or has not
 * yet taken away) is no file of the folder's, so it is guarded as missing, blocked again.
 */
function realKindOf(path: string): Kind {
  return held.has(path) ? undefined : kindOf(path);
}

/** The guard for each folder top (deduplicated by the caller). */
export function gitGuardFor(tops: readonly string[]): GitGuard {
  const guard: GitGuard = { readOnly: [], blocked: [] };
  for (const top of tops) {
    if (kindOf(top) !== "directory") continue;
    guardDotGit(top, guard);
    guardBareRepository(top, guard);
  }
  return guard;
}

function guardDotGit(top: string, guard: GitGuard): void {
  const dotGit = join(top, ".git");
  const kind = realKindOf(dotGit);
  // Another command's stand-in (the sandboxes of parallel calls) is no repository: blocked again.
  if (kind === undefined) {
    guard.blocked.push({ path: dotGit, kind: "directory" });
    return;
  }
  if (kind !== "directory") {
    // A gitfile (`gitdir: ...` of a worktree or submodule), or something stranger: as it is.
    guard.readOnly.push(dotGit);
    return;
  }
  // git's own work (commit, checkout) goes on; only what makes git run code is kept.
  protectRepositoryCode(dotGit, guard);
}

/** `dir` cannot turn into a bare repository while the command runs; if it is one, its code is kept. */
function guardBareRepository(dir: string, guard: GitGuard): void {
  const head = join(dir, "HEAD");
  const markers = [head, join(dir, "objects"), join(dir, "refs")];
  const present = markers.map((path) => realKindOf(path) !== undefined);
  if (present[0]) guard.readOnly.push(head);
  markers.forEach((path, i) => {
    if (!present[i]) guard.blocked.push({ path, kind: "file" });
  });
  if (present.every(Boolean)) protectRepositoryCode(dir, guard);
}

/**
 * A repository's `config` and `hooks` read-only, or not creatable when missing; an existing
 * `commondir` (which names another folder whose config and hooks git then uses) read-only. A
 * missing one cannot be blocked by a stand-in: git reads any `commondir` it finds and stops when it
 * cannot, so the stand-in would break git itself (a known gap, docs/status.md).
 */
function protectRepositoryCode(gitDir: string, guard: GitGuard): void {
  for (const [name, kind] of [
    ["config", "file"],
    ["hooks", "directory"],
  ] as const) {
    const path = join(gitDir, name);
    if (realKindOf(path) === undefined) guard.blocked.push({ path, kind });
    else guard.readOnly.push(path);
  }
  const commondir = join(gitDir, "commondir");
  if (realKindOf(commondir) !== undefined) guard.readOnly.push(commondir);
}

/**
 * Stand-ins in use by this process's sandboxes, with how many use each: process-wide because the
 * mount points are on the one shared file system, whichever session's command made them.
 */
const held = new Map<string, number>();

/** Marks the stand-ins of a command about to start as in use. */
export function holdMountPoints(blocked: readonly HiddenPath[]): void {
  for (const { path } of blocked) held.set(path, (held.get(path) ?? 0) + 1);
}

/**
 * The command is over: takes away the mount points bwrap left on the host for its blocked paths,
 * those no other sandbox of this process still uses, and only what is still empty (an empty file,
 * an empty folder), so nothing anyone wrote is lost.
 */
export function releaseMountPoints(blocked: readonly HiddenPath[]): void {
  // Deepest first: a `.git/HEAD` stand-in goes before the `.git` that holds it.
  for (const { path, kind } of [...blocked].sort((a, b) => b.path.length - a.path.length)) {
    const users = (held.get(path) ?? 1) - 1;
    if (users > 0) {
      held.set(path, users);
      continue;
    }
    held.delete(path);
    try {
      if (kind === "directory") {
        if (statSync(path).isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
      } else if (lstatSync(path).isFile() && statSync(path).size === 0) {
        unlinkSync(path);
      }
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}
