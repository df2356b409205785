// Command-line parsing for the session command. List flags behave as in Claude Code
// (`--allowedTools Read "Bash(git:*)"` takes every following word that is not a flag). The flag
// table is session-flag-table.ts; the checks of each value, session-config-build.ts.
import { splitRuleList } from "../../permissions/rules/index.js";
import { buildSessionConfig } from "./session-config-build.js";
import { type SessionConfig, UsageError } from "./session-config-types.js";
import { BY_NAME } from "./session-flag-table.js";

export {
  type InputFormat,
  type OutputFormat,
  SETTING_SOURCES,
  type SessionConfig,
  type SettingSource,
  UsageError,
} from "./session-config-types.js";
export { usageText } from "./session-flag-table.js";

export function parseSessionArgs(argv: readonly string[], baseCwd = process.cwd()): SessionConfig {
  const raw: Record<string, unknown> = {
    allowedTools: [],
    disallowedTools: [],
    addDirs: [],
    mcpConfig: [],
    pluginDirs: [],
  };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = BY_NAME.get(name);
    if (!spec) throw new UsageError(`unknown option ${name}`);
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (spec.kind === "boolean") {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      raw[spec.key] = true;
    } else if (spec.kind === "optional") {
      raw[spec.key] = true;
    } else if (spec.kind === "string") {
      // The next word is the value unless it is one of our options: `-r --model X` is a missing
      // id, not a session named "--model" (a value may still start with "-": `--system-prompt "- x"`).
      const next = argv[i + 1];
      const value = inline ?? (next === undefined || isOption(next) ? undefined : argv[++i]);
      // `warden -r` alone, as in Claude Code: the session picker (refused with -p, where nobody picks).
      if (value === undefined && spec.key === "resume") {
        raw.pickResume = true;
        continue;
      }
      if (value === undefined) throw new UsageError(`${name} needs a value ${spec.arg ?? ""}`.trim());
      raw[spec.key] = value;
    } else {
      const list = raw[spec.key] as string[];
      const before = list.length;
      // Only rule lists split on commas and spaces; an --mcp-config value (a file or inline JSON)
      // and an --add-dir path are kept whole.
      const items = spec.splitsValues ? splitRuleList : (value: string) => [value];
      if (inline !== undefined) list.push(...items(inline));
      else
        while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("-"))
          list.push(...items(argv[++i] as string));
      if (list.length === before) throw new UsageError(`${name} needs at least one value ${spec.arg ?? ""}`.trim());
    }
  }
  return buildSessionConfig(raw, positionals, baseCwd);
}

/**
 * When a list option (`--allowedTools Read Edit "fix it"`) took every word to the end of the line,
 * as Claude Code's do: the option and its last word, which the person may have meant as the prompt.
 * For the message of a run that found no prompt; undefined otherwise.
 */
export function listTookLastWord(argv: readonly string[]): { option: string; word: string } | undefined {
  if (argv.includes("--")) return undefined;
  const last = argv.findLastIndex((word) => word.startsWith("-") && word !== "-");
  const option = argv[last];
  const word = argv.at(-1);
  if (option === undefined || word === undefined || last === argv.length - 1) return undefined;
  return BY_NAME.get(option)?.kind === "list" ? { option, word } : undefined;
}

/** A word that names one of the session's options (`--model`, `--model=x`, `-c`). */
function isOption(word: string): boolean {
  const eq = word.startsWith("--") ? word.indexOf("=") : -1;
  return BY_NAME.has(eq > 0 ? word.slice(0, eq) : word);
}
