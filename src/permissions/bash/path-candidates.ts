// The paths one word of a command can name: the word itself, an option's `=value`
// (`--data-binary=@x`, `--key=deploy.pem`) and curl's `@file`.
import type { Field } from "../../shell/words/index.js";

export function pathCandidates(word: Field): Field[] {
  if (!word.literal) return [];
  const values = [word.value];
  const eq = word.value.indexOf("=");
  if (word.value.startsWith("-") && eq !== -1) values.push(word.value.slice(eq + 1));
  for (const value of [...values]) if (value.startsWith("@")) values.push(value.slice(1));
  return values.filter((v) => v !== "" && !v.startsWith("-")).map((value) => ({ ...word, value }));
}
