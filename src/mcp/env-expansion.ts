// `${VAR}` and `${VAR:-default}` in MCP server configs, as Claude Code's .mcp.json files use them
// (tokens and paths are kept out of the checked-in file and come from the user's environment).

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  value: string;
  /** Variables used without a default that the environment does not set. */
  missing: string[];
}

/**
 * Replaces each `${VAR}` by its value and each `${VAR:-default}` by its value or, when VAR is
 * unset or empty, the default. A variable that is unset and has no default is reported, and left
 * as written so the message can show where it was.
 */
export function expandEnvVars(text: string, env: NodeJS.ProcessEnv): Expansion {
  const missing: string[] = [];
  const value = text.replace(VARIABLE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (fallback !== undefined) return set === undefined || set === "" ? fallback : set;
    if (set === undefined) {
      missing.push(name);
      return whole;
    }
    return set;
  });
  return { value, missing };
}

/** Expands every string of a record's values; `missing` collects across all of them. */
export function expandRecord(
  record: Record<string, string>,
  env: NodeJS.ProcessEnv,
  missing: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(record)) {
    const expanded = expandEnvVars(raw, env);
    missing.push(...expanded.missing);
    out[key] = expanded.value;
  }
  return out;
}
