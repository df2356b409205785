// How a command moves the shell's current directory, read from its words: the splitter uses it
// so that each later command's paths resolve where bash would run it, and an unknowable move
// (`cd "$X"`, `popd`, `cd -`) leaves the directory unknown instead of guessed.
import * as os from "node:os";
import * as path from "node:path";
import type { Field } from "../words/index.js";

/** Where the shell stands after this command: `cd`/`pushd` move it; `popd` makes it unknown. */
export function nextDirectory(allWords: Field[], cwd: string | undefined): string | undefined {
  // `builtin cd` and `command cd` are still cd.
  let start = 0;
  while (allWords[start]?.value === "builtin" || allWords[start]?.value === "command") start += 1;
  const words = start > 0 ? allWords.slice(start) : allWords;
  const name = words[0]?.value;
  if (name !== "cd" && name !== "pushd" && name !== "popd") return cwd;
  if (name === "popd") return undefined;
  const operands = words.slice(1).filter((w) => !(w.value.startsWith("-") && w.value.length > 1));
  const target = operands[0];
  if (!target) return name === "cd" ? os.homedir() : undefined;
  // `cd -`, `pushd +1`: the directory comes from shell state, not from the text.
  if (!target.literal || target.glob || /^[-+]\d*$/.test(target.value)) return undefined;
  if (cwd === undefined && !path.isAbsolute(target.value) && !target.value.startsWith("~")) return undefined;
  return resolveShellPath(target.value, cwd ?? "/");
}

export function resolveShellPath(value: string, cwd: string): string {
  if (value === "~" || value.startsWith("~/")) return path.join(os.homedir(), value.slice(1));
  return path.resolve(cwd, value);
}
