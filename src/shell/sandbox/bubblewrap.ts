// Linux sandboxing through bubblewrap: the command sees the whole file system read-only, gets write
// access only to the folders the policy names, and (unless allowed) a network namespace with
// nothing but its own loopback, so even 127.0.0.1 services of the host are out of reach.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { bridgeArgs, type NetworkBridge, proxyEnvironment } from "./proxy-launch.js";
import type { HiddenPath } from "./read-deny.js";

export type SandboxAvailability = { available: true; bwrapPath: string } | { available: false; reason: string };

export interface SandboxPolicy {
  /** Folders (absolute) the command may write; everything else is read-only. */
  writableDirectories: string[];
  /** Paths inside writable folders that stay read-only (settings files, git hooks and config). */
  readOnlyPaths: string[];
  /** Paths Read deny rules name: replaced by an empty file or an empty read-only folder. */
  hiddenPaths?: HiddenPath[];
  /**
   * Missing paths the command must not create (git-guard.ts: a `.git`, a bare repository's
   * `HEAD`): an empty read-only file or folder stands there, removed again after the command.
   */
  blockedPaths?: HiddenPath[];
  allowNetwork: boolean;
  /**
   * The network limited to some domains: the command reaches only the filtering proxy, through a
   * bridge in an outer namespace (proxy-launch.ts). Ignored when allowNetwork is true.
   */
  networkBridge?: NetworkBridge;
  /** Where the command starts. */
  cwd: string;
  /** The sandbox's temp folder (TMPDIR inside); must be one of the writable folders. */
  tempDir: string;
  /** A seccomp program (see seccomp.ts), handed to bwrap on file descriptor SECCOMP_FD. */
  seccompFilter?: Buffer;
}

/** The descriptor the launcher passes the seccomp program on (the first after stdio). */
export const SECCOMP_FD = 3;

const probes = new Map<string, Promise<SandboxAvailability>>();

function findBwrap(env: NodeJS.ProcessEnv): string | undefined {
  if (env.WARDEN_BWRAP_PATH) return env.WARDEN_BWRAP_PATH;
  for (const dir of (env.PATH ?? "/usr/bin:/bin").split(delimiter)) {
    const candidate = join(dir, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/**
 * Whether bubblewrap is installed and can build the namespaces we need here (it cannot where user
 * namespaces are disabled). Probed once per bwrap path and process: the answer does not change
 * while we run, and a probe costs a process start.
 */
export function probeBubblewrap(env: NodeJS.ProcessEnv = process.env): Promise<SandboxAvailability> {
  const bwrapPath = findBwrap(env);
  if (!bwrapPath) {
    return Promise.resolve({ available: false, reason: "bubblewrap (bwrap) is not installed" });
  }
  let probe = probes.get(bwrapPath);
  if (!probe) {
    probe = runProbe(bwrapPath);
    probes.set(bwrapPath, probe);
  }
  return probe;
}

function runProbe(bwrapPath: string): Promise<SandboxAvailability> {
  return new Promise((resolve) => {
    const args = [
      "--die-with-parent",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-net",
      "--cap-drop",
      "ALL",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
    ];
    const child = spawn(bwrapPath, [...args, "--proc", "/proc", "--", "true"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ available: false, reason: `bubblewrap could not be started: ${error.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ available: true, bwrapPath });
      else
        resolve({
          available: false,
          reason: `bubblewrap cannot create a sandbox here: ${stderr.trim() || `exit ${code}`}`,
        });
    });
  });
}

/** The bwrap arguments (before `--` and the command) that enforce a policy. */
export function bubblewrapArgs(policy: SandboxPolicy): string[] {
  // --unshare-pid: killing bwrap's init takes every process of the sandbox with it.
  // --die-with-parent: a crashed Warden does not leave sandboxed commands running.
  // --cap-drop ALL: run as root, bwrap would otherwise keep every capability, and with
  // CAP_SYS_ADMIN a command can simply remount the root read-write.
  const args = [
    "--die-with-parent",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--cap-drop",
    "ALL",
  ];
  // With a bridge, the outer layer has made the network namespace already (sandboxCommandLine).
  const bridged = !policy.allowNetwork && policy.networkBridge !== undefined;
  if (!policy.allowNetwork && !bridged) args.push("--unshare-net");
  // A private, writable /dev/shm: POSIX shared memory (Python's multiprocessing locks) needs one,
  // and the host's must not be shared.
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs", "/dev/shm", "--proc", "/proc");
  // Later mounts cover earlier ones: writable folders over the read-only root, then the protected
  // paths inside them read-only again.
  for (const dir of policy.writableDirectories) args.push("--bind-try", dir, dir);
  for (const path of policy.readOnlyPaths) args.push("--ro-bind-try", path, path);
  // Shallowest first, so a stand-in `.git` is mounted before what is blocked inside it.
  const standIns = [...(policy.hiddenPaths ?? []), ...(policy.blockedPaths ?? [])].sort(
    (a, b) => a.path.length - b.path.length,
  );
  for (const hidden of standIns) {
    if (hidden.kind === "file") args.push("--ro-bind", "/dev/null", hidden.path);
    else args.push("--tmpfs", hidden.path, "--remount-ro", hidden.path);
  }
  // The temp folder last, so no protected path that contains it can make it read-only.
  args.push("--bind", policy.tempDir, policy.tempDir);
  if (policy.seccompFilter) args.push("--seccomp", String(SECCOMP_FD));
  args.push("--setenv", "TMPDIR", policy.tempDir, "--chdir", policy.cwd);
  if (bridged)
    for (const [name, value] of Object.entries(proxyEnvironment(policy.networkBridge?.directHosts ?? [])))
      args.push("--setenv", name, value);
  return args;
}

/** The program and arguments that run `command` (argv) in the sandbox a policy describes. */
export function sandboxCommandLine(bwrapPath: string, policy: SandboxPolicy, command: string[]): [string, string[]] {
  const inner = [...bubblewrapArgs(policy), "--", ...command];
  if (policy.allowNetwork || !policy.networkBridge) return [bwrapPath, inner];
  return [bwrapPath, [...bridgeArgs(policy.networkBridge), bwrapPath, ...inner]];
}
