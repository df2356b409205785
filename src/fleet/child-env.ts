// The environment a job's session starts with: the worker's own, less the fleet's variables. A
// session's commands run as the worker's user, and `echo $WARDEN_REDIS_URL` is a read-only
// command: whatever the worker's environment holds, the job can print into its events. So the
// Redis URL (with its password), the job key and every other fleet setting stay with the worker.

/** Variables of the fleet itself (where Redis is, the job key, the worker's knobs). */
export function isFleetVariable(name: string): boolean {
  return name.startsWith("WARDEN_REDIS_") || name.startsWith("WARDEN_FLEET_");
}

/** `env` without the fleet's variables: the base of every job session's environment. */
export function sessionBaseEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isFleetVariable(name)) base[name] = value;
  return base;
}
