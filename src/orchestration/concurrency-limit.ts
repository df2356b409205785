export const DEFAULT_MAX_TOOL_USE_CONCURRENCY = 10;

/**
 * How many concurrency-safe calls may run at once: WARDEN_MAX_TOOL_USE_CONCURRENCY, or 10. Read
 * when an executor is made (not at import) so a session or a test can change it. Anything that is
 * not a whole number of at least 1 falls back to the default rather than to "unlimited" or "none".
 */
export function maxToolUseConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WARDEN_MAX_TOOL_USE_CONCURRENCY;
  if (raw === undefined || raw.trim() === "") return DEFAULT_MAX_TOOL_USE_CONCURRENCY;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 ? value : DEFAULT_MAX_TOOL_USE_CONCURRENCY;
}
