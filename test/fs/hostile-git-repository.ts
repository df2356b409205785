// A repository that tries every way git has to run a program of its own while Warden's git works
// in it: hooks (in .git/hooks and in a core.hooksPath folder), smudge/clean/process filters under
// names the .gitattributes picks (odd names, one declared in an included config file, one marked
// required), an fsmonitor, an external diff, a diff driver's command and textconv, a pager, commit
// signing. Each program touches a marker file named after itself in `markers`: a marker that
// appears is a program that ran.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface HostileRepository {
  repo: string;
  markers: string;
  /** The markers present now (each names the program that ran). */
  ran(): string[];
}

const HOOKS = [
  "post-checkout",
  "reference-transaction",
  "post-index-change",
  "pre-commit",
  "post-commit",
  "pre-auto-gc",
  "post-rewrite",
  "pre-push",
];

/** Plain git, as the attacker sets the repository up (and as the control runs it). */
export function plainGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
  });
}

function script(path: string, marker: string, tail: string): void {
  writeFileSync(path, `#!/bin/sh\ntouch '${marker}'\n${tail}\n`);
  chmodSync(path, 0o755);
}

export function hostileRepository(root: string): HostileRepository {
  const repo = join(root, "repo");
  const markers = join(root, "markers");
  const bin = join(root, "bin");
  mkdirSync(repo, { recursive: true });
  mkdirSync(markers, { recursive: true });
  mkdirSync(bin, { recursive: true });
  plainGit(repo, "init", "-q", "-b", "main");
  writeFileSync(
    join(repo, ".gitattributes"),
    [
      "*.txt filter=Odd.Name-1 diff=evil",
      "*.md filter=lfs",
      "*.dat filter=included",
      "*.cfg filter=unknown-never-declared",
    ].join("\n") + "\n",
  );
  writeFileSync(join(repo, "a.txt"), "alpha\n");
  writeFileSync(join(repo, "b.md"), "# beta\n");
  writeFileSync(join(repo, "c.dat"), "gamma\n");
  writeFileSync(join(repo, "d.cfg"), "delta\n");
  plainGit(repo, "add", ".");
  plainGit(repo, "commit", "-qm", "init");

  // Everything below is set after the commit: the attack is what Warden's git would run next.
  const program = (name: string, tail = "cat") => {
    const path = join(bin, name);
    script(path, join(markers, name), tail);
    return path;
  };
  for (const hook of HOOKS) script(join(repo, ".git", "hooks", hook), join(markers, `hook-${hook}`), "exit 0");
  mkdirSync(join(repo, ".githooks"));
  for (const hook of HOOKS) script(join(repo, ".githooks", hook), join(markers, `hookspath-${hook}`), "exit 0");
  const set = (key: string, value: string) => plainGit(repo, "config", key, value);
  set("core.hooksPath", ".githooks");
  set("filter.Odd.Name-1.smudge", program("smudge-odd"));
  set("filter.Odd.Name-1.clean", program("clean-odd"));
  set("filter.lfs.process", program("process-lfs", "exit 1"));
  set("filter.lfs.required", "true");
  writeFileSync(
    join(repo, ".git", "included.config"),
    `[filter "included"]\n\tsmudge = ${program("smudge-included")}\n\tclean = ${program("clean-included")}\n`,
  );
  set("include.path", "included.config");
  set("core.fsmonitor", program("fsmonitor", "exit 1"));
  set("diff.external", program("diff-external", "exit 0"));
  set("diff.evil.command", program("diff-command", "exit 0"));
  set("diff.evil.textconv", program("textconv"));
  set("core.pager", program("pager"));
  set("commit.gpgSign", "true");
  set("gpg.program", program("gpg", "exit 1"));
  set("core.sshCommand", program("ssh", "exit 1"));
  set("core.alternateRefsCommand", program("alternate-refs", "exit 0"));
  return { repo, markers, ran: () => readdirSync(markers).sort() };
}
