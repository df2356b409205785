// The program a launcher starts with the words after it: `python3 -m pytest -p x` runs pytest with
// `-p x`, as do `uv run pytest -p x`, `poetry run ...`, `npx pytest ...`, `pnpm exec ...`. An
// allow rule for the launcher's prefix (`Bash(python3 -m pytest:*)`) names that program, so the
// options that make it run another program (pytest's `-p` plugin) are checked on it too.
import { commandBaseName, type Field } from "../words/index.js";

/** Launchers whose subcommand starts the program named next (`uv run X`, `pnpm exec X`). */
const SUBCOMMAND_LAUNCHERS: Record<string, readonly string[]> = {
  uv: ["run", "tool"],
  poetry: ["run"],
  pipenv: ["run"],
  pdm: ["run"],
  hatch: ["run"],
  rye: ["run"],
  pipx: ["run"],
  pnpm: ["exec", "dlx"],
  yarn: ["exec", "dlx"],
  npm: ["exec", "x"],
  bun: ["x", "run"],
};
/** Launchers whose first operand is the program (`npx X`). */
const DIRECT_LAUNCHERS = new Set(["npx", "bunx", "uvx", "pnpx"]);
const PYTHON = /^(python(\d+(\.\d+)?)?|pypy\d*|py)$/;

/**
 * The word lists that may be the launched program and its arguments. Where the launcher's own
 * options end is not parsed: every later word that is not an option is tried as the program, which
 * can only find more.
 */
export function launchedCommands(words: Field[]): Field[][] {
  const name = commandBaseName(words[0]?.value ?? "");
  const values = words.map((w) => w.value);
  let start: number;
  if (PYTHON.test(name)) {
    // `-m pytest` or `-mpytest`: the module runs as the program of that name.
    const at = values.findIndex((v, i) => i > 0 && /^-m/.test(v));
    if (at === -1) return [];
    const glued = values[at]?.slice(2) ?? "";
    const rest = words.slice(at + 1);
    const first = words[at] as Field;
    return glued === "" ? [rest] : [[{ ...first, value: glued, source: glued }, ...rest]];
  }
  const subcommands = SUBCOMMAND_LAUNCHERS[name];
  if (subcommands) {
    const at = values.findIndex((v, i) => i > 0 && subcommands.includes(v));
    if (at === -1) return [];
    start = at + 1;
  } else if (DIRECT_LAUNCHERS.has(name)) start = 1;
  else return [];
  const candidates: Field[][] = [];
  for (let i = start; i < words.length; i += 1) {
    if (!values[i]?.startsWith("-")) candidates.push(words.slice(i));
  }
  return candidates;
}
