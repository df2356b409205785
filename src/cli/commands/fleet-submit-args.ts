// `warden fleet submit`'s command line. Rule lists take words as Claude Code's `--allowedTools`
// does (and as `warden -p` does): every word up to the next flag, each word split on commas and
// spaces outside parentheses, the flag repeatable. So `--allowed-tools Read Edit "Bash(npm test:*)"
// --max-turns 30 "Fix the tests"` is three rules and a prompt. A list that runs to the end of the
// line would swallow the prompt; since submit always needs one, its last word is the prompt then
// (`--allowed-tools Read Edit "Fix the tests"`), unless `--prompt` gave it.

import { FleetUsageError } from "../../fleet/redis.js";
import { splitRuleList } from "../../permissions/index.js";

export interface SubmitArgs {
  /** Single-valued flags by name (`prompt`, `repo`, `model`, `redis`...). */
  values: Partial<Record<(typeof STRING_FLAGS)[number], string>>;
  allowedTools?: string[];
  disallowedTools?: string[];
  positionals: string[];
}

const STRING_FLAGS = [
  "redis",
  "redis-url-file",
  "prompt",
  "repo",
  "model",
  "permission-mode",
  "max-turns",
  "max-budget-usd",
  "json-schema",
] as const;

const LIST_FLAGS: Record<string, "allowedTools" | "disallowedTools"> = {
  "--allowed-tools": "allowedTools",
  "--allowedTools": "allowedTools",
  "--disallowed-tools": "disallowedTools",
  "--disallowedTools": "disallowedTools",
};

export function parseSubmitArgs(argv: readonly string[]): SubmitArgs {
  const parsed: SubmitArgs = { values: {}, positionals: [] };
  /** The list that took the line's last word, and how many words it took. */
  let tail: { key: "allowedTools" | "disallowedTools"; words: number } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const listKey = LIST_FLAGS[name];
    if (listKey) {
      const list = parsed[listKey] ?? [];
      parsed[listKey] = list;
      const before = list.length;
      if (inline !== undefined) list.push(...splitRuleList(inline));
      else {
        let words = 0;
        while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("-")) {
          list.push(...splitRuleList(argv[++i] as string));
          words++;
        }
        tail = i === argv.length - 1 && words > 1 ? { key: listKey, words } : undefined;
      }
      if (list.length === before) throw new FleetUsageError(`${name} needs at least one rule`);
      continue;
    }
    const flag = STRING_FLAGS.find((known) => `--${known}` === name);
    if (!flag) throw new FleetUsageError(`submit: unknown option ${name}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new FleetUsageError(`${name} needs a value`);
    parsed.values[flag] = value;
  }
  if (tail && parsed.positionals.length === 0 && parsed.values.prompt === undefined) {
    // The last word was the prompt, not a rule: give it back (whole, as the shell passed it).
    const last = argv[argv.length - 1] as string;
    const list = parsed[tail.key] as string[];
    list.splice(list.length - splitRuleList(last).length);
    parsed.positionals.push(last);
  }
  return parsed;
}
