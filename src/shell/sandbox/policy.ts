// Which paths a sandboxed command may write. Working folders are writable so ordinary work
// succeeds; files that would run code or change permissions later, outside the sandbox (git hooks
// and config, settings files, shell start-up files), stay read-only even inside them, so a command
// cannot plant something that escapes the sandbox the next time git or Warden runs; nor can it
// plant a repository of its own for git to trust (a `.git`, a bare repository: git-guard.ts). Paths that
// Read deny rules name are hidden (read-deny.ts); paths Edit rules name are writable (allow) or
// read-only (deny), the deny winning (edit-rules.ts). Unix sockets are refused by a seccomp filter
// (seccomp.ts); where none is available for the architecture, known socket files are hidden
// instead (host-sockets.ts).
import { join } from "node:path";
import { userHome } from "../../config/paths.js";
import { canonicalPath as canonical } from "../../fs/path-kind.js";
import type { PermissionRule } from "../../tool/permission-types.js";
import type { SandboxPolicy } from "./bubblewrap.js";
import type { ResolvedSandboxSettings } from "./config.js";
import { editAllowedPaths, editDeniedPaths } from "./edit-rules.js";
import { gitGuardFor } from "./git-guard.js";
import { hostSocketsToHide } from "./host-sockets.js";
import { type HiddenPath, readDeniedPaths } from "./read-deny.js";
import { unixSocketFilter } from "./seccomp.js";

const PROTECTED_IN_EACH_FOLDER = [
  ".git/hooks",
  ".git/config",
  ".gitmodules",
  ".warden/settings.json",
  ".warden/settings.local.json",
  ".warden/agents",
  ".warden/skills",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".claude/agents",
  ".claude/skills",
  ".mcp.json",
  ".bashrc",
  ".bash_profile",
  ".profile",
  ".zshrc",
  ".zprofile",
  ".gitconfig",
  ".vscode",
  ".idea",
  // Run by other tools on their own: direnv, git hooks managers, dev-container builds.
  ".envrc",
  ".husky",
  ".devcontainer",
  ".devcontainer.json",
];

export interface SandboxPolicyInput {
  workingDirectories: string[];
  cwd: string;
  tempDir: string;
  settings: ResolvedSandboxSettings;
  /**
   * The session's deny rules: paths Read rules name are hidden in the sandbox, paths Edit rules
   * name are read-only.
   */
  denyRules?: readonly PermissionRule[];
  /** The session's allow rules: paths Edit rules name are writable in the sandbox. */
  allowRules?: readonly PermissionRule[];
  /** The commands' environment, for the sockets it names (ssh agent, session bus). */
  env?: NodeJS.ProcessEnv;
}

export function sandboxPolicyFor(input: SandboxPolicyInput): SandboxPolicy {
  const seccompFilter = input.settings.allowUnixSockets ? undefined : unixSocketFilter();
  const ruleRoot = input.workingDirectories[0] ?? input.cwd;
  const writable = unique([
    ...input.workingDirectories.map(canonical),
    ...input.settings.additionalWritableDirectories.map(canonical),
    ...editAllowedPaths(input.allowRules ?? [], ruleRoot).map(canonical),
    canonical(input.tempDir),
  ]);
  const home = canonical(userHome());
  // Where git would trust what a command planted: the tops of the folders it may write (not the
  // session's temp folder) and its own directory (git-guard.ts).
  const tops = unique([
    ...input.workingDirectories.map(canonical),
    ...input.settings.additionalWritableDirectories.map(canonical),
    canonical(input.cwd),
  ]);
  const gitGuard = gitGuardFor(tops.filter((top) => insideAny(top, writable) && top !== canonical(input.tempDir)));
  const readOnly = unique([
    ...gitGuard.readOnly,
    ...writable.flatMap((dir) => PROTECTED_IN_EACH_FOLDER.map((name) => join(dir, name))),
    // The user-level settings matter even when the home folder is not a working folder, e.g. when
    // a working folder is the home itself or contains it.
    join(home, ".warden", "settings.json"),
    join(home, ".claude", "settings.json"),
    join(home, ".claude.json"),
    // Mounted after the writable folders, so an Edit deny rule wins over an allow rule or a
    // working folder that holds its path.
    ...editDeniedPaths(input.denyRules ?? [], ruleRoot).map(canonical),
  ]);
  return {
    writableDirectories: writable,
    readOnlyPaths: readOnly,
    hiddenPaths: hiddenPathsFor(input, seccompFilter !== undefined),
    blockedPaths: gitGuard.blocked,
    seccompFilter,
    allowNetwork: input.settings.allowNetwork,
    cwd: canonical(input.cwd),
    tempDir: canonical(input.tempDir),
  };
}

function hiddenPathsFor(input: SandboxPolicyInput, socketsBlocked: boolean): HiddenPath[] {
  const denied = readDeniedPaths(input.denyRules ?? [], input.workingDirectories[0] ?? input.cwd);
  // With socket() refused by seccomp, or sockets allowed on purpose, there is nothing to hide.
  if (socketsBlocked || input.settings.allowUnixSockets) return denied;
  const hiddenDirs = denied.filter((hidden) => hidden.kind === "directory").map((hidden) => `${hidden.path}/`);
  // A socket inside a folder that is already hidden no longer exists in the sandbox to mount over.
  const sockets = hostSocketsToHide(input.env ?? process.env, [canonical(input.tempDir)]).filter(
    (socket) => !hiddenDirs.some((dir) => socket.path.startsWith(dir)),
  );
  return [...denied, ...sockets];
}

function insideAny(path: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`));
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
