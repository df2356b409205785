// A folder's settings.local.json is the user's own, not the team's (docs/configuration.md: "you,
// this project (git-ignored)"). When Warden writes one inside a git repository, the file is named
// in the repository's .git/info/exclude, so a "don't ask again" answer does not turn up in `git
// status` and get committed by the next `git add -A`. Claude Code keeps its local file out the
// same way (in the user's global ignore file; the clone's own exclude changes nothing elsewhere).
// No git is run: a repository's configuration can make git start programs (fsmonitor), and the
// line is harmless where a .gitignore already covers the file or the team tracks it.
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Keeps `file` (a settings.local.json Warden just wrote) out of git; best effort, never throws. */
export function keepLocalSettingsOutOfGit(file: string): void {
  try {
    const real = realpathSync(file);
    const repository = enclosingRepository(dirname(real));
    // Only into a real git folder: a `.git` file of an unpacked archive may point anywhere.
    if (repository === undefined || !existsSync(join(repository.commonDir, "objects"))) return;
    const pattern = `/${relative(repository.top, real)
      .split(sep)
      .join("/")
      .replace(/[\\*?[\]]/g, "\\$&")}`;
    const exclude = join(repository.commonDir, "info", "exclude");
    const current = existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
    if (current.split("\n").includes(pattern)) return;
    mkdirSync(dirname(exclude), { recursive: true });
    appendFileSync(exclude, `${current === "" || current.endsWith("\n") ? "" : "\n"}${pattern}\n`);
  } catch {
    // The settings were written; only the ignore line is missing, which git status will show.
  }
}

/** The work tree holding `dir` and the git folder its info/exclude belongs to (a linked worktree's is the main one's). */
function enclosingRepository(dir: string): { top: string; commonDir: string } | undefined {
  for (let top = dir; ; top = dirname(top)) {
    const dotGit = join(top, ".git");
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return { top, commonDir: dotGit };
      // A worktree's or submodule's `.git` file: `gitdir: PATH`, whose `commondir` names the shared folder.
      const gitDir = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
      if (gitDir === undefined) return undefined;
      const absolute = resolve(top, gitDir);
      const commonFile = join(absolute, "commondir");
      const common = existsSync(commonFile) ? resolve(absolute, readFileSync(commonFile, "utf8").trim()) : absolute;
      return { top, commonDir: common };
    }
    if (dirname(top) === top) return undefined;
  }
}
