// How long a foreground command may run. The environment can move both limits (a slow CI box, a
// team that wants shorter leashes) but never below the default: a max under the default would make
// the default itself invalid.
export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;

function positiveInteger(raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

export function defaultTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env.BASH_DEFAULT_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS;
}

export function maxTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(positiveInteger(env.BASH_MAX_TIMEOUT_MS) ?? MAX_TIMEOUT_MS, defaultTimeoutMs(env));
}
