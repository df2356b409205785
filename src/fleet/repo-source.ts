// What a job's `repo` names, as git would read it: a remote URL (reached over the network), a
// folder on the worker's own disk, or something git must never be handed. Git reads more than
// paths and URLs: `-c...` or `--upload-pack=...` as an option, `ext::sh -c ...` as a transport
// that runs a command, `file://` as a local path. A worker decides from this which it clones.
import { isAbsolute } from "node:path";

export type RepoSource =
  | { kind: "remote"; url: string }
  | { kind: "local"; path: string }
  /** A path relative to some folder: the submitter's, which a worker does not know. */
  | { kind: "relative"; path: string }
  | { kind: "invalid"; reason: string };

/** The transports a remote repository may use (git's GIT_ALLOW_PROTOCOL names). */
export const REMOTE_PROTOCOLS = ["https", "http", "ssh", "git"] as const;

const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

export function classifyRepo(repo: string): RepoSource {
  if (repo.startsWith("-"))
    return { kind: "invalid", reason: `${JSON.stringify(repo)} starts with "-" (git would read it as an option)` };
  if (/[\0\n\r]/.test(repo)) return { kind: "invalid", reason: "it holds a control character" };
  // `transport::address` makes git run a remote helper (`ext::` runs any command).
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(repo)) {
    return { kind: "invalid", reason: `${JSON.stringify(repo)} names a git remote helper (transport::address)` };
  }
  const scheme = URL_SCHEME.exec(repo)?.[1]?.toLowerCase();
  if (scheme === "file") {
    try {
      return { kind: "local", path: decodeURIComponent(new URL(repo).pathname) };
    } catch {
      return { kind: "invalid", reason: `${JSON.stringify(repo)} is not a valid file:// URL` };
    }
  }
  if (scheme !== undefined) {
    const allowed = scheme.split("+").every((part) => (REMOTE_PROTOCOLS as readonly string[]).includes(part));
    return allowed
      ? { kind: "remote", url: repo }
      : { kind: "invalid", reason: `the ${scheme}:// transport is not one a worker clones from` };
  }
  // scp-like `[user@]host:path`: git reads it as ssh when no slash comes before the first colon.
  const colon = repo.indexOf(":");
  if (colon > 0 && !repo.slice(0, colon).includes("/")) return { kind: "remote", url: repo };
  return isAbsolute(repo) ? { kind: "local", path: repo } : { kind: "relative", path: repo };
}
