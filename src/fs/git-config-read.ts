// Reading git configuration for a permission check (aliases, the hooks folder, the keys that run
// programs). `git config` runs no hook, filter or fsmonitor; it goes through the same environment
// as every Warden git (fs/git-safety.ts), so no caller's variable sends it to another repository
// and nothing can prompt. No `-c` overrides: the readers want the repository's own values (the
// hooks folder it names), and an override would answer in its place.
import { execFileSync } from "node:child_process";
import { gitEnvironment } from "./git-safety.js";

/** `git -C dir config <args>`, synchronously; throws as execFileSync does (exit status 1: unset). */
export function readGitConfigSync(dir: string, args: readonly string[]): string {
  return execFileSync("git", ["-C", dir, "config", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 3000,
    env: gitEnvironment(process.env),
  });
}
