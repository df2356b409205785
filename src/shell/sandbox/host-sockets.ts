// Unix sockets of host services, hidden from the sandbox. A read-only mount does not stop connect()
// on a socket file, and a network namespace does not cover path-based sockets, so without this a
// sandboxed command could ask the Docker daemon (`docker run -v /:/host`), a tmux server
// (`tmux send-keys`), the ssh agent or the session bus to act for it, outside the sandbox.
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { HiddenPath } from "./read-deny.js";

/** Folders where services put their sockets, and how deep to look in each. */
const SOCKET_ROOTS: ReadonlyArray<[string, number]> = [
  ["/run", 3],
  ["/var/run", 3],
  ["/tmp", 2],
  ["/dev/shm", 1],
];
/** A scan must stay cheap even on a /tmp with thousands of entries. */
const MAX_ENTRIES = 5_000;

/** Socket paths the environment points at (ssh agent, session bus, Docker host). */
export function socketsNamedByEnvironment(env: NodeJS.ProcessEnv): string[] {
  const paths: string[] = [];
  if (env.SSH_AUTH_SOCK) paths.push(env.SSH_AUTH_SOCK);
  const bus = /(?:^|;)unix:path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? "");
  if (bus?.[1]) paths.push(bus[1]);
  const docker = /^unix:\/\/(.+)$/.exec(env.DOCKER_HOST ?? "");
  if (docker?.[1]) paths.push(docker[1]);
  return paths;
}

function scan(dir: string, depth: number, found: Set<string>, budget: { left: number }): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (--budget.left <= 0) return;
    const path = join(dir, entry.name);
    if (entry.isSocket()) found.add(path);
    else if (entry.isDirectory() && depth > 1) scan(path, depth - 1, found, budget);
  }
}

/**
 * Every socket file found under the usual service folders, plus those the environment names.
 * Paths inside `exclude` (the sandbox's own temp folder) are kept: the command made them.
 */
export function hostSocketsToHide(env: NodeJS.ProcessEnv = process.env, exclude: readonly string[] = []): HiddenPath[] {
  const found = new Set<string>();
  for (const path of socketsNamedByEnvironment(env)) {
    try {
      if (lstatSync(path).isSocket()) found.add(path);
    } catch {
      // The variable names a socket that is not there.
    }
  }
  const budget = { left: MAX_ENTRIES };
  const roots = env.XDG_RUNTIME_DIR ? [...SOCKET_ROOTS, [env.XDG_RUNTIME_DIR, 2] as [string, number]] : SOCKET_ROOTS;
  for (const [root, depth] of roots) scan(root, depth, found, budget);
  return [...found]
    .filter((path) => !exclude.some((dir) => path === dir || path.startsWith(`${dir}/`)))
    .map((path) => ({ path, kind: "file" as const }));
}
