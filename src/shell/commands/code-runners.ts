// Commands that run other code: the code is chosen by their arguments (a script, an inline
// program, a package, a command line), not by the program itself. A shell, a wrapper (`env`,
// `sudo`, `xargs`, `timeout`), an interpreter (`node`, `python3`, `perl`), a package runner
// (`npx`, `uvx`, `uv run`, `npm exec`). A rule allowing such a prefix (`node:*`) allows any code,
// so neither a "don't ask again" suggestion nor auto mode's allow rules may take one. The list is
// built from the analysis's own tables (the wrappers it peels, the shells and interpreters whose
// programs it reads), plus the runners that fetch or start a program named on the command line.
import { commandBaseName } from "../words/index.js";
import { AWKS, isInterpreterName } from "./hidden-code.js";
import { LOOSE_WRAPPERS, SHELLS, WRAPPERS } from "./wrapper-steps.js";

/** Programs that run what they are given, beyond the analysis's wrapper, shell and interpreter tables. */
const RUNNERS = new Set([
  // shells and shell-like programs the wrapper table does not peel
  "csh",
  "tcsh",
  "elvish",
  "nu",
  "xonsh",
  "busybox",
  "toybox",
  "expect",
  "tclsh",
  "wish",
  "rc",
  // interpreters and script runners the hidden-code table does not list
  "deno",
  "tsx",
  "ts-node",
  "ts-node-esm",
  "esno",
  "esr",
  "jiti",
  "babel-node",
  "coffee",
  "julia",
  "R",
  "racket",
  "guile",
  "sbcl",
  "clisp",
  "ghci",
  "runghc",
  "runhaskell",
  "scala",
  "kotlin",
  "groovy",
  "jshell",
  "java",
  "elixir",
  "erl",
  "escript",
  "swift",
  "dotnet-script",
  "irb",
  "php-cgi",
  "gdb",
  "lldb",
  // package runners: fetch a package (or find a binary) and run it with the arguments
  "npx",
  "bunx",
  "pnpx",
  "uvx",
  "pipx",
  "dlx",
  // programs that run a command line or a script they are handed
  "find",
  "parallel",
  "ssh",
  "sshpass",
  "watch",
  "entr",
  "nodemon",
  "osascript",
  "sg",
  "newgrp",
  "chpst",
  "daemonize",
  "start-stop-daemon",
  "tmux",
  "screen",
  "at",
  "batch",
  "crontab",
  "vim",
  "vi",
  "nvim",
  "ex",
  "emacs",
  "less",
  "more",
  "man",
]);

/**
 * Programs whose listed subcommands run what they are given (`uv run X`, `npm exec X`, `go run f.go`).
 * Their bare name (`npm:*`) or their name before an option (`git -c core.pager=sh ...`) covers
 * those subcommands too, so only a prefix naming another subcommand is safe.
 */
const SUBCOMMAND_RUNNERS: Record<string, ReadonlySet<string>> = {
  git: new Set([]),
  uv: new Set(["run", "tool"]),
  npm: new Set(["exec", "x", "explore"]),
  pnpm: new Set(["dlx", "exec", "x"]),
  yarn: new Set(["dlx", "exec", "node"]),
  bun: new Set(["run", "x", "exec"]),
  poetry: new Set(["run"]),
  pdm: new Set(["run"]),
  hatch: new Set(["run", "shell"]),
  pipenv: new Set(["run", "shell"]),
  conda: new Set(["run"]),
  mamba: new Set(["run"]),
  micromamba: new Set(["run"]),
  rye: new Set(["run"]),
  go: new Set(["run", "generate", "tool"]),
  cargo: new Set(["run", "script"]),
  dotnet: new Set(["run", "exec", "fsi"]),
  nix: new Set(["run", "shell", "develop"]),
  "nix-shell": new Set(["--run", "--command"]),
  docker: new Set(["run", "exec"]),
  podman: new Set(["run", "exec"]),
  kubectl: new Set(["exec", "run", "debug"]),
  rustup: new Set(["run"]),
  volta: new Set(["run"]),
  fnm: new Set(["exec"]),
  nvm: new Set(["exec", "run"]),
  asdf: new Set(["exec"]),
  mise: new Set(["exec", "x", "run"]),
  direnv: new Set(["exec"]),
  gh: new Set(["extension"]),
  systemd: new Set(["run"]),
};

/**
 * Why the command whose first words are `words` (as bash runs them, quotes removed) runs code its
 * arguments choose, or undefined when its name alone says what it does. Only the first two words
 * count: that is how much of a command a rule prefix can name.
 */
export function codeRunnerReason(words: readonly string[]): string | undefined {
  const first = words[0];
  if (first === undefined || first === "") return undefined;
  const name = commandBaseName(first);
  if (SHELLS.has(name)) return `${name} is a shell: it runs any script it is given`;
  if (name in WRAPPERS || name in LOOSE_WRAPPERS) return `${name} runs the command it is given`;
  if (isInterpreterName(name) || AWKS.has(name)) return `${name} runs any program it is given`;
  if (RUNNERS.has(name)) return `${name} runs code named by its arguments`;
  // `python3.12`, `node20`, `ruby3`: versioned names of the interpreters above.
  const unversioned = name.replace(/[-_]?[0-9][0-9.]*$/, "");
  if (unversioned !== name && (isInterpreterName(unversioned) || RUNNERS.has(unversioned))) {
    return `${name} runs any program it is given`;
  }
  const subcommands = SUBCOMMAND_RUNNERS[name];
  if (subcommands === undefined) return undefined;
  const second = words[1];
  if (second === undefined || second === "" || second.startsWith("-")) {
    return `${name} without a subcommand covers the ones that run other code`;
  }
  return subcommands.has(second) ? `${name} ${second} runs the command it is given` : undefined;
}
